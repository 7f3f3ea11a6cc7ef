// The one description of writev's settings: a JSON schema from which come the validation of a
// `.writev-lint.json` file, of --config, of the settings an editor sends, the defaults, and the
// `contributes.configuration` of the extension's manifest (package.json is generated from it; a test
// fails when they drift). The analyzer part is what a config file holds; the editor part adds the
// settings only the VS Code extension reads.
import { PRESET_NAMES, PRESETS } from '../analyzer/presets';

/** A JSON schema node, with the annotation keywords VS Code's settings editor understands. */
export interface SchemaNode {
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean;
  readonly items?: SchemaNode;
  readonly enum?: readonly unknown[];
  readonly enumDescriptions?: readonly string[];
  readonly default?: unknown;
  readonly minimum?: number;
  readonly minItems?: number;
  readonly minLength?: number;
  readonly pattern?: string;
  /** Shown by VS Code's settings editor, and by our validation, when `pattern` does not match. */
  readonly patternErrorMessage?: string;
  readonly description?: string;
  readonly markdownDescription?: string;
  readonly scope?: string;
}

/** The keywords VS Code reads beside JSON schema's own; the validator accepts and ignores them. */
export const ANNOTATION_KEYWORDS = [
  'enumDescriptions',
  'markdownDescription',
  'patternErrorMessage',
  'scope',
];

const FUNCTION_NAME: SchemaNode = {
  type: 'string',
  pattern: '^[A-Za-z_$][\\w$.]*$',
  patternErrorMessage: 'a function name: letters, digits, _ and $, with dots for a method (out.send)',
};

const LANGUAGE: SchemaNode = {
  type: 'string',
  enum: ['c', 'ts'],
  default: 'c',
  description: '`c` for C files, `ts` for TypeScript and JavaScript.',
};

const SEVERITY = ['error', 'warning', 'information', 'hint'];

/** Every setting the analyzer reads, as a config file or an editor gives it. */
const ANALYZER_PROPERTIES: Readonly<Record<string, SchemaNode>> = {
  writeFunctions: {
    type: 'array',
    default: [],
    items: {
      type: 'object',
      required: ['name'],
      additionalProperties: false,
      properties: {
        name: {
          ...FUNCTION_NAME,
          description:
            'Function name (C), or the callee as written (TS/JS), e.g. `emit_packet` or `out.send`.',
        },
        language: LANGUAGE,
        fd: { type: 'integer', minimum: 0, default: 0, description: 'Index of the descriptor argument.' },
        buf: { type: 'integer', minimum: 0, default: 1, description: 'Index of the buffer argument.' },
        len: {
          type: 'integer',
          minimum: 0,
          description: 'Index of the length argument; leave out for a C string (strlen) or a TS buffer.',
        },
        gatheredName: {
          ...FUNCTION_NAME,
          description:
            'The gathered function quick fixes should call instead; leave out for hints without a quick fix.',
        },
      },
    },
    markdownDescription:
      "Extra functions that write a buffer to a descriptor, besides the defaults (`write`, `xwrite`, `write_in_full`, `write_or_die`, `fs.writeSync`, the runtime's writers...).",
  },
  wrappers: {
    type: 'array',
    default: [],
    items: {
      type: 'object',
      required: ['name', 'fd'],
      additionalProperties: false,
      properties: {
        name: { ...FUNCTION_NAME, description: 'The wrapper function, e.g. `emit`.' },
        language: LANGUAGE,
        fd: {
          type: 'string',
          pattern: '\\S',
          patternErrorMessage: 'the descriptor expression, e.g. "out_fd"',
          description: 'The descriptor expression the wrapper writes to, e.g. `out_fd` or `1`.',
        },
        buf: { type: 'integer', minimum: 0, default: 0, description: 'Index of the buffer argument.' },
        len: { type: 'integer', minimum: 0, description: 'Index of the length argument, if any.' },
      },
    },
    markdownDescription:
      'Functions that only write their buffer argument to a fixed descriptor, so calls to them count as writes to it. The server also finds such wrappers in the workspace by itself.',
  },
  minSequenceLength: {
    type: 'integer',
    default: 2,
    minimum: 2,
    markdownDescription: 'Shortest run of writes to the same descriptor that is reported.',
  },
  severity: {
    type: 'object',
    additionalProperties: false,
    default: {},
    properties: {
      adjacentWrites: {
        type: 'string',
        enum: [...SEVERITY, 'off'],
        default: 'warning',
        markdownDescription:
          'Severity of `adjacent-writes` (several writes that could be one `writev`); `off` reports none.',
      },
      adjacentWritesUnknownFd: {
        type: 'string',
        enum: [...SEVERITY, 'off'],
        default: 'information',
        markdownDescription:
          'Severity of `adjacent-writes-unknown-fd` (several plain writes to a descriptor whose kind the code does not show: they could be one `writev` if it is a byte stream).',
      },
      loopWrites: {
        type: 'string',
        enum: [...SEVERITY, 'off'],
        default: 'information',
        markdownDescription: 'Severity of `loop-writes` (a write per loop iteration); `off` reports none.',
      },
    },
  },
  unknownDescriptors: {
    type: 'string',
    enum: ['report', 'quiet'],
    default: 'report',
    markdownDescription:
      'Plain `write`/`send` runs on a descriptor whose kind the code does not show (a parameter, a struct member set elsewhere): `report` them as `adjacent-writes-unknown-fd`, assuming a byte stream, or stay `quiet`. Datagram, sequenced-packet and raw sockets and device files the code opens stay quiet either way.',
  },
  languages: {
    type: 'object',
    additionalProperties: false,
    default: {},
    properties: {
      c: { type: 'boolean', default: true, description: 'Analyse C files and headers.' },
      typescript: { type: 'boolean', default: true, description: 'Analyse TypeScript files.' },
      javascript: { type: 'boolean', default: true, description: 'Analyse JavaScript files.' },
    },
  },
  exclude: {
    type: 'array',
    items: { type: 'string' },
    default: [],
    markdownDescription:
      'Gitignore-style patterns of files never analysed, e.g. `vendor/` or `**/*.test.ts` (relative to the `.writev-lint.json` that sets them, or to the workspace folder).',
  },
  attributeMacros: {
    type: 'array',
    items: { type: 'string', pattern: '^[A-Za-z_]\\w*$', patternErrorMessage: 'a C identifier' },
    default: [
      'NORETURN',
      'MAYBE_UNUSED',
      'UNUSED',
      '__maybe_unused',
      '__always_unused',
      '__cold',
      '__init',
      '__exit',
      '__must_check',
      '__always_inline',
      'noinline',
      '__noreturn',
    ],
    markdownDescription:
      'C attribute-like macros read as whitespace before parsing (`NORETURN`, `MAYBE_UNUSED`...). Setting it replaces the list.',
  },
  measuredWrites: {
    type: 'object',
    additionalProperties: false,
    default: {},
    properties: {
      minCalls: {
        type: 'integer',
        minimum: 1,
        default: 100,
        markdownDescription:
          'With a loaded trace: a traced line with at least this many write calls (of small size) that no rule flagged gets a `measured-writes` hint.',
      },
      maxAverageBytes: {
        type: 'integer',
        minimum: 0,
        default: 256,
        markdownDescription:
          'With a loaded trace: the most bytes per call, on average, that count as small writes for `measured-writes`.',
      },
    },
  },
  streamFunctions: {
    type: 'array',
    items: { type: 'string', pattern: '^[A-Za-z_]\\w*$', patternErrorMessage: 'a C function name' },
    default: [],
    markdownDescription:
      'C functions that return a byte-stream descriptor (a file, a pipe, a stream socket), e.g. `connect_to_server`. Plain `write()`/`send()` calls on what they return are then counted; by default only descriptors from `open`, `mkstemp`, `pipe`, `socket(..., SOCK_STREAM, ...)` and the like are.',
  },
  presets: {
    type: 'array',
    items: {
      type: 'string',
      enum: PRESET_NAMES,
      enumDescriptions: PRESET_NAMES.map((name) => PRESETS[name].description),
    },
    default: [],
    markdownDescription:
      'Projects whose own C helpers your code uses, e.g. `["openssh"]`: their write functions, and which of their functions only read or fill a buffer. The defaults know only C, POSIX, Linux and Git\'s helpers. Known: ' +
      PRESET_NAMES.map((name) => `\`${name}\``).join(', ') +
      '.',
  },
  reportUnusedDirectives: {
    type: 'boolean',
    default: false,
    markdownDescription:
      'Report `writev-lint-disable` comments that suppress nothing, and unknown codes in them (as `unused-directive`).',
  },
};

/** `node` without its defaults (and its members' and items'): an override sets only what it names. */
function withoutDefaults(node: SchemaNode): SchemaNode {
  const { default: _default, properties, items, ...rest } = node;
  return {
    ...rest,
    ...(properties
      ? {
          properties: Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, withoutDefaults(v)])),
        }
      : {}),
    ...(items ? { items: withoutDefaults(items) } : {}),
  };
}

/**
 * One entry of `overrides`: the files it applies to and the settings it changes for them. Every
 * analyzer setting but `exclude` (which files are linted at all is the config file's own say).
 */
const OVERRIDE: SchemaNode = {
  type: 'object',
  required: ['files'],
  additionalProperties: false,
  properties: {
    files: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'string',
        pattern: '\\S',
        patternErrorMessage: 'a gitignore-style pattern, e.g. "tests/"',
      },
      markdownDescription:
        'Gitignore-style patterns of the files this entry applies to, relative to the folder of the `.writev-lint.json` (`tests/`, `**/*.test.ts`, `!tests/keep.c`).',
    },
    ...Object.fromEntries(
      Object.entries(ANALYZER_PROPERTIES)
        .filter(([key]) => key !== 'exclude')
        .map(([key, node]) => [key, withoutDefaults(node)]),
    ),
  },
};

/** The settings a `.writev-lint.json` file (or --config) holds: everything the analyzer reads. */
export const SETTINGS_SCHEMA: SchemaNode = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...ANALYZER_PROPERTIES,
    overrides: {
      type: 'array',
      items: OVERRIDE,
      markdownDescription:
        'Settings for some files only, as ESLint\'s and ruff\'s per-file settings: `[{ "files": ["tests/"], "severity": { "loopWrites": "off" } }]`. Each entry whose `files` match a file changes the settings it names, in order (a later entry wins); objects such as `severity` merge key by key, lists replace. In a `.writev-lint.json` only: in VS Code, use folder settings.',
    },
  },
};

/** The settings only the VS Code extension reads (editor-only: not valid in a config file). */
const EDITOR_ONLY: Readonly<Record<string, SchemaNode>> = {
  trace: {
    type: 'object',
    additionalProperties: false,
    properties: {
      server: {
        type: 'string',
        enum: ['off', 'messages', 'verbose'],
        default: 'off',
        scope: 'window',
        description:
          'Traces the communication between VS Code and the writev language server (in the writev log).',
      },
    },
  },
  benchmarks: {
    type: 'object',
    additionalProperties: false,
    properties: {
      size: {
        type: 'string',
        enum: ['tiny', 'quick', 'full'],
        enumDescriptions: [
          'Seconds: a smoke test.',
          'About a minute on a laptop.',
          'The published figures: several minutes.',
        ],
        default: 'quick',
        scope: 'machine-overridable',
        markdownDescription: 'How much work **writev: Run Benchmarks** does.',
      },
      runs: {
        type: ['integer', 'null'],
        minimum: 1,
        default: null,
        scope: 'machine-overridable',
        markdownDescription: "Measured runs per mode; empty for the suite's default at the chosen size.",
      },
    },
  },
};

/** The `writev` section as an editor sends it: the analyzer settings and the editor-only ones. */
export const EDITOR_SETTINGS_SCHEMA: SchemaNode = {
  ...SETTINGS_SCHEMA,
  properties: { ...ANALYZER_PROPERTIES, ...EDITOR_ONLY },
};

/** Names of the top-level settings only the editor reads (`trace`, `benchmarks`). */
export const EDITOR_ONLY_KEYS: readonly string[] = Object.keys(EDITOR_ONLY);

/** Whether a node is an object of named settings (flattened to dotted keys in the manifest). */
function isGroup(node: SchemaNode): boolean {
  return node.type === 'object' && node.properties !== undefined;
}

/**
 * The manifest's `contributes.configuration`, generated from {@link EDITOR_SETTINGS_SCHEMA`}: nested
 * groups become dotted keys (`writev.severity.adjacentWrites`), as VS Code's settings are declared.
 */
export function manifestConfiguration(): { title: string; properties: Record<string, SchemaNode> } {
  const properties: Record<string, SchemaNode> = {};
  const visit = (prefix: string, node: SchemaNode) => {
    for (const [key, child] of Object.entries(node.properties ?? {})) {
      if (isGroup(child)) visit(`${prefix}.${key}`, child);
      else properties[`${prefix}.${key}`] = child;
    }
  };
  visit('writev', EDITOR_SETTINGS_SCHEMA);
  return { title: 'writev', properties };
}

/** The value `schema` describes when nothing is set: groups filled from their members' defaults. */
export function defaultsOf(schema: SchemaNode): unknown {
  if (!isGroup(schema)) return structuredClone(schema.default);
  const value: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(schema.properties ?? {})) {
    const d = defaultsOf(child);
    if (d !== undefined) value[key] = d;
  }
  return value;
}
