// Validates settings against the schema (ajv, JSON schema draft 7) and turns ajv's errors into
// messages a user can act on: the key path as written in the file, what was expected, what was
// found, and a "did you mean" for near misses of a key or an enumerated value.
import type * as Crypto from 'node:crypto';
import type * as AjvModule from 'ajv';
import type { default as Ajv, ErrorObject, Options, ValidateFunction } from 'ajv';
import { ANNOTATION_KEYWORDS, EDITOR_ONLY_KEYS, type SchemaNode } from './schema';

/** One problem in a settings object: where (`severity.adjacentWrites`, `writeFunctions[1].fd`) and what. */
export interface SettingsIssue {
  /** The key path, as written in the input (empty for the input as a whole). */
  readonly path: string;
  readonly message: string;
}

/** Settings that do not match the schema, or a config file that cannot be used; names the source. */
export class SettingsError extends Error {
  readonly code = 'EWRITEVSETTINGS';
  /** `source`: the config file, or a description such as "the editor settings". */
  constructor(
    readonly source: string,
    readonly issues: readonly SettingsIssue[],
  ) {
    super(issues.map((i) => `${source}: ${i.path ? `${i.path}: ` : ''}${i.message}`).join('\n'));
    this.name = 'SettingsError';
  }
}

/**
 * The options every settings validator is compiled with, here and by the build
 * (scripts/settings-validators.js), so a precompiled validator reports exactly what a compiled one would.
 */
export const AJV_OPTIONS: Readonly<Options> = {
  allErrors: true,
  verbose: true,
  useDefaults: true,
  allowUnionTypes: true,
  keywords: ANNOTATION_KEYWORDS,
};

/** The name of `schema`'s precompiled validator: a digest of its JSON, so a changed schema never meets a stale one. */
export function schemaKey(schema: SchemaNode): string {
  const { createHash } = require('node:crypto') as typeof Crypto;
  return `s${createHash('sha256').update(JSON.stringify(schema)).digest('hex').slice(0, 32)}`;
}

/**
 * The validators the build generated (ajv's standalone code, in settingsValidators.js beside this
 * file), by {@link schemaKey}; empty when the module is missing (a build by `tsc -b` alone).
 */
function precompiled(): Readonly<Record<string, ValidateFunction | undefined>> {
  try {
    return require('./settingsValidators') as Record<string, ValidateFunction | undefined>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') return {};
    throw error;
  }
}

let ajv: Ajv | undefined;
const compiled = new Map<SchemaNode, ValidateFunction>();

/** The validator of `schema` (found or compiled once; it fills in defaults where values are missing). */
function validatorOf(schema: SchemaNode): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    // Compiling the schema cost more than the rest of a small run that reads a config file, so the
    // build generates the code; ajv compiles only a schema the build did not see.
    validate = precompiled()[schemaKey(schema)];
    if (!validate) {
      const { default: AjvClass } = require('ajv') as typeof AjvModule;
      ajv ??= new AjvClass(AJV_OPTIONS);
      validate = ajv.compile(schema as object);
    }
    compiled.set(schema, validate);
  }
  return validate;
}

/** Edit distance (insertions, deletions, substitutions, adjacent swaps), for "did you mean". */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const up = d[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, ((d[i - 2] as number[])[j - 2] as number) + 1);
      }
      row[j] = best;
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/**
 * The candidate `word` was most likely meant to be: same letters ignoring case and separators, or
 * within about one edit in three letters. Undefined when nothing is close.
 */
export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  const squash = (s: string) => s.toLowerCase().replace(/[-_.\s]/g, '');
  const exact = candidates.find((c) => squash(c) === squash(word));
  if (exact) return exact;
  const prefix = word.length >= 3 ? candidates.find((c) => squash(c).startsWith(squash(word))) : undefined;
  if (prefix) return prefix;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = distance(word.toLowerCase(), c.toLowerCase());
    if (d < bestDistance && d <= Math.max(1, Math.floor(Math.max(word.length, c.length) / 3))) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

/** `/writeFunctions/0/fd` as `writeFunctions[0].fd`, under `prefix` (`writev`) when given. */
function keyPath(pointer: string, prefix: string): string {
  let path = prefix;
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^\d+$/.test(part)) path += `[${part}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(part)) path += path ? `.${part}` : part;
    else path += `[${JSON.stringify(part)}]`;
  }
  return path;
}

function join(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? (path ? `${path}.${key}` : key) : `${path}[${JSON.stringify(key)}]`;
}

/** The value at a JSON pointer in `data` (the value ajv complained about). */
function valueAt(data: unknown, pointer: string): unknown {
  let value = data;
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    value =
      typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[part] : undefined;
  }
  return value;
}

/**
 * A short rendering of a value for a message: scalars as written (cut to 60 characters), lists and
 * objects by their kind only, so a message never carries more of a file than the value at fault.
 */
function shown(value: unknown): string {
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (typeof value === 'object' && value !== null) return 'an object';
  const text = JSON.stringify(value);
  if (text === undefined) return String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

const ARTICLE: Record<string, string> = {
  object: 'an object',
  array: 'a list',
  string: 'a string',
  boolean: 'true or false',
  integer: 'a whole number',
  number: 'a number',
  null: 'null',
};

function expectedType(type: unknown): string {
  const types = [type].flat().map((t) => ARTICLE[String(t)] ?? String(t));
  return types.join(' or ');
}

/** The issue for one ajv error; `data` is the validated input, `prefix` the path's first part. */
function issueOf(error: ErrorObject, data: unknown, prefix: string): SettingsIssue {
  const path = keyPath(error.instancePath, prefix);
  const value = valueAt(data, error.instancePath);
  const schema = error.parentSchema as SchemaNode | undefined;
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = String((error.params as { additionalProperty: string }).additionalProperty);
      const known = Object.keys(schema?.properties ?? {});
      if (key.includes('.') && !path) {
        // VS Code's settings.json spells settings with dots; a config file nests them.
        const parts = key.replace(/^writev\./, '').split('.');
        const nested = `${parts.map((p) => `{"${p}": `).join('')}...${'}'.repeat(parts.length)}`;
        return { path: key, message: `unknown setting; this file nests settings: ${nested}` };
      }
      if (!path && EDITOR_ONLY_KEYS.includes(key)) {
        return { path: key, message: 'an editor setting (VS Code settings.json), not for a config file' };
      }
      const near = didYouMean(key, known);
      return {
        path: join(path, key),
        message: `unknown setting${near ? `; did you mean ${join(path, near)}?` : ` (known here: ${known.join(', ')})`}`,
      };
    }
    case 'required': {
      const key = String((error.params as { missingProperty: string }).missingProperty);
      return { path: join(path, key), message: 'missing (it is required)' };
    }
    case 'type':
      return { path, message: `expected ${expectedType(schema?.type)}, got ${shown(value)}` };
    case 'enum': {
      const allowed = (schema?.enum ?? []).map(String);
      const near = typeof value === 'string' ? didYouMean(value, allowed) : undefined;
      return {
        path,
        message: `expected one of ${allowed.join(', ')}, got ${shown(value)}${near ? `; did you mean ${near}?` : ''}`,
      };
    }
    case 'minimum': {
      const limit = (error.params as { limit: number }).limit;
      const what = [schema?.type].flat().includes('integer') ? 'a whole number' : 'a number';
      return { path, message: `expected ${what} of ${limit} or more, got ${shown(value)}` };
    }
    case 'minItems': {
      const limit = (error.params as { limit: number }).limit;
      return { path, message: `expected a list of ${limit} or more, got ${shown(value)}` };
    }
    case 'pattern':
      return {
        path,
        message: `expected ${schema?.patternErrorMessage ?? `text matching ${schema?.pattern}`}, got ${shown(value)}`,
      };
    default:
      return { path, message: `${error.message ?? 'invalid'}, got ${shown(value)}` };
  }
}

/** Settings nest a few levels (`writeFunctions[0].fd`); anything far deeper is refused before it is read. */
export const MAX_SETTINGS_DEPTH = 32;

/**
 * The key path (under `prefix`, cut to its first two keys) of a value nested deeper than
 * {@link MAX_SETTINGS_DEPTH} levels in `data`, or undefined when none is. Iterative, so a value
 * nested 100,000 levels deep is measured without exhausting the stack that copying, validating or
 * printing it would use up.
 */
export function tooDeep(data: unknown, prefix = ''): string | undefined {
  const stack: { value: unknown; depth: number; path: string }[] = [{ value: data, depth: 0, path: prefix }];
  while (stack.length > 0) {
    const { value, depth, path } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= MAX_SETTINGS_DEPTH) return path;
    const keep = depth < 2;
    if (Array.isArray(value)) {
      value.forEach((item, i) =>
        stack.push({ value: item, depth: depth + 1, path: keep ? `${path}[${i}]` : path }),
      );
    } else {
      for (const [key, item] of Object.entries(value))
        stack.push({ value: item, depth: depth + 1, path: keep ? join(path, key) : path });
    }
  }
  return undefined;
}

/** The issue for settings nested too deep, or undefined; see {@link tooDeep}. */
export function depthIssue(data: unknown, prefix = ''): SettingsIssue | undefined {
  const path = tooDeep(data, prefix);
  return path === undefined
    ? undefined
    : { path, message: `nested deeper than ${MAX_SETTINGS_DEPTH} levels` };
}

/**
 * Checks `data` against `schema`, filling in defaults where values are missing (in place: pass a
 * copy). Throws a {@link SettingsError} listing every problem, once per key path, with paths under
 * `prefix` and the message led by `source`.
 */
export function validate<T>(schema: SchemaNode, data: unknown, source: string, prefix = ''): T {
  const check = validatorOf(schema);
  if (check(data)) return data as T;
  const issues: SettingsIssue[] = [];
  const seen = new Set<string>();
  for (const error of check.errors ?? []) {
    const issue = issueOf(error, data, prefix);
    // A value of the wrong type also fails its enum or pattern: the first complaint says enough.
    if (seen.has(issue.path)) continue;
    seen.add(issue.path);
    issues.push(issue);
  }
  throw new SettingsError(source, issues);
}
