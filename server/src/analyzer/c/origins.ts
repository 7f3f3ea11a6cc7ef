// Where a plain descriptor comes from. One `write(2)` or `send(2)` can be one message on a datagram
// socket or a device, so plain writes are gathered only on descriptors known to be byte streams: stdout
// and stderr, and descriptors whose every assignment in the function (locals) or in the file (globals)
// is a call that returns a stream (`open`, `mkstemp`, `socket(..., SOCK_STREAM, ...)`, a lock-file
// helper, a function of the file that returns one of those) or an end of a pipe array (`fds[1]`), the
// two ends of a `pipe()`, and the
// `.in` of a child process started with a pipe (`cp.in = -1`). Parameters stay unknown.
import type { Node } from 'web-tree-sitter';
import { pairElements, streamPairArrays } from './pairArrays';
import { C_PIPE_FUNCTIONS } from '../catalogue';
import type { MessageDescriptors } from './messageDescriptors';
import { addrinfoStreams, isStreamSocketCall, isStreamType } from './socketTypes';
import { namesDevice, NO_DEVICES } from './deviceMacros';
import {
  callArgs,
  calleeName,
  canonicalTarget,
  declaredName,
  functionName,
  namedKids,
  parameterNames,
  rootName,
  unwrap,
} from './syntax';

/** What the file says about descriptors, found once per analysis (part of the results' cache key). */
export interface FileStreams {
  /** Functions whose result is a byte-stream descriptor: the catalogue's, the user's, the file's own. */
  readonly functions: ReadonlySet<string>;
  /** Globals of the file assigned only such results (or -1). */
  readonly globals: ReadonlySet<string>;
  /**
   * Parameters of the file's static functions that every call in the file passes a stream, by
   * function name (a static function has no callers elsewhere).
   */
  readonly parameters?: ReadonlyMap<string, ReadonlySet<string>>;
  /** Descriptors the file shows to keep message boundaries. */
  readonly messages?: MessageDescriptors;
  /**
   * Parameters of the file's static functions that some call in the file hands a message socket, by
   * function name (see messageParameters.ts).
   */
  readonly messageParameters?: ReadonlyMap<string, ReadonlySet<string>>;
  /** The file's addrinfo hints ask for stream sockets only (see addrinfoStreams). */
  readonly hints?: boolean;
  /** Members the file assigns byte streams only, keyed by their struct (see memberStreams). */
  readonly members?: ReadonlySet<string>;
  /** Arrays the file fills with pipes or stream socketpairs only (see pairArrays.ts). */
  readonly pairArrays?: ReadonlySet<string>;
  /** Descriptors the file makes a copy of a message socket with `dup2()` (see messageRedirects.ts). */
  readonly redirected?: ReadonlySet<string>;
  /** Object-like macros naming a device's literal path, in the file or its headers (deviceMacros.ts). */
  readonly devices?: ReadonlySet<string>;
}

/** What a value is as a descriptor: a new byte stream, the `-1` placeholder, or anything else. */
export type Origin = 'stream' | 'sentinel' | 'other';

/**
 * A value that says "no descriptor yet": a negative constant (`-1`, `-EBADF`, `-ENOENT`), which no
 * descriptor is.
 */
const SENTINEL = /^-(?:\d+|[A-Z][A-Z0-9_]*)$/;

/** What the value `node` is as a descriptor: a new byte stream, the `-1` placeholder, or unknown. */
function origin(
  node: Node,
  functions: ReadonlySet<string>,
  known: (text: string) => boolean,
  hints = false,
  devices: ReadonlySet<string> = NO_DEVICES,
): Origin {
  const value = unwrap(node);
  const bare = canonicalTarget(value.text.replace(/[()]/g, ''));
  if (SENTINEL.test(bare)) return 'sentinel';
  if (bare === '1' || bare === '2' || known(bare)) return 'stream';
  if (value.type === 'conditional_expression') {
    // `to_stdout ? STDOUT_FILENO : open(path, ...)`: a stream either way.
    const arms = ['consequence', 'alternative'].map((f) => value.childForFieldName(f));
    const kinds = arms.map((a) => (a ? origin(a, functions, known, hints, devices) : 'other'));
    return kinds.includes('other') ? 'other' : kinds.includes('stream') ? 'stream' : 'sentinel';
  }
  if (value.type === 'assignment_expression') {
    const right = value.childForFieldName('right');
    return right ? origin(right, functions, known, hints, devices) : 'other';
  }
  if (value.type !== 'call_expression') return 'other';
  const name = calleeName(value) ?? '';
  if (!functions.has(name)) return 'other';
  const args = callArgs(value);
  switch (name) {
    case 'socket':
      return isStreamType(args[1]?.text ?? '', hints) ? 'stream' : 'other';
    case 'open':
    case 'open64':
    case 'xopen':
      return namesDevice(args[0]?.text ?? '', devices, true) ? 'other' : 'stream';
    case 'openat':
    case 'openat64':
      return namesDevice(args[1]?.text ?? '', devices, true) ? 'other' : 'stream';
    case 'dup':
    case 'dup2':
    case 'dup3':
      return args[0] && /^[012]$/.test(canonicalTarget(args[0].text)) ? 'stream' : 'other';
    default:
      // A project's opener given a device's literal path (`dev_open("/dev/hidraw0")`) opens that device,
      // whatever it opens for other paths: as the library's `open()` of that path is read above, and as
      // assignedOrigin reads the same call from the text.
      return args.some((a) => namesDevice(a.text, devices, true)) ? 'other' : 'stream';
  }
}

/** The functions of a file that return a byte-stream descriptor on every path (or -1 on failure). */
export function streamReturning(
  fns: readonly Node[],
  functions: ReadonlySet<string>,
  hints = false,
  devices: ReadonlySet<string> = NO_DEVICES,
): Set<string> {
  const found = new Set<string>();
  for (const fn of fns) {
    const body = fn.childForFieldName('body');
    const name = declaredName(fn.childForFieldName('declarator'));
    if (!body || !name || !/\breturn\b/.test(body.text)) continue;
    // `int fd = open(...); ...; return fd;` returns a stream too. The function's own streams are read
    // only when no return settles the question without them: most functions that open something
    // return a status somewhere (`return 0;`), and reading their streams took two thirds of this
    // function's time over the corpus trees.
    let locals: Set<string> | undefined;
    const known = (text: string) => {
      if (!STREAM_KEY.test(text)) return false;
      if (!locals) {
        // Every local, initialised or not: `int s; if ((s = socket(...)) < 0) return -1; return s;`.
        const declared = new Set<string>();
        for (const d of body.descendantsOfType('declaration'))
          for (const k of d ? d.childrenForFieldName('declarator') : [])
            if (k) {
              const n = declaredName(k);
              if (n) declared.add(n);
            }
        locals = functionStreams(fn, declared, { functions, globals: new Set(), hints, devices });
      }
      return locals.has(text);
    };
    const values = body.descendantsOfType('return_statement').map((r) => r?.namedChild(0));
    // First without the streams: a return that is no stream whatever they hold (`return 0;`, a
    // return that asks about no text of their form) settles it.
    let asked = false;
    const unknown = (text: string) => {
      asked ||= STREAM_KEY.test(text);
      return false;
    };
    const settled = values.some((value) => {
      asked = false;
      return !value || (origin(value, functions, unknown, hints, devices) === 'other' && !asked);
    });
    if (settled) continue;
    const kinds = values.map((value) => (value ? origin(value, functions, known, hints, devices) : 'other'));
    if (kinds.includes('stream') && kinds.every((k) => k !== 'other')) found.add(name);
  }
  return found;
}

/**
 * What a descriptor {@link functionStreams} finds can look like: a name (a global, local or
 * parameter), a pipe's end (`fds[0]`) or a child's input (`cp.in`, `cp->in`). A text of any other
 * form (`0`, `-1`, `x + 1`) is none of them.
 */
const STREAM_KEY = /^[A-Za-z_]\w*$|\]$|in$/;

const ASSIGNED_NAME = /(?<![\w.>])([A-Za-z_]\w*)\s*(?:=(?!=)|[-+*/|&^]=)/g;

/** `fds[1];`: one end of an array, the whole value assigned. */
const PAIR_END = /^\s*\(?\s*([A-Za-z_]\w*)\s*\[\s*[01]\s*\]\s*\)?\s*[;,)]/;

const NO_PAIRS: ReadonlySet<string> = new Set();

/**
 * What the text after `name =` assigns, read from the text alone (a call's first 200 characters):
 * `pairs` are the file's arrays filled by pipes or stream socketpairs only (pairArrays.ts), whose ends
 * are streams wherever they are stored (`ctx->to_parent = fds[1]`).
 */
export function assignedOrigin(
  rest: string,
  functions: ReadonlySet<string>,
  hints: boolean,
  pairs: ReadonlySet<string> = NO_PAIRS,
  devices: ReadonlySet<string> = NO_DEVICES,
): Origin {
  if (/^\s*\(?\s*-\s*(?:\d+|[A-Z][A-Z0-9_]*)\s*\)?\s*[;,)]/.test(rest)) return 'sentinel';
  const end = pairs.size > 0 ? PAIR_END.exec(rest) : null;
  if (end && pairs.has(end[1]!)) return 'stream';
  const call = /^\s*(?:\(\s*int\s*\)\s*)?([A-Za-z_]\w*)\s*\(([^;]*)/.exec(rest);
  if (!call || !functions.has(call[1]!)) return 'other';
  const args = call[2]!;
  if (call[1] === 'socket') return isStreamSocketCall(args, hints) ? 'stream' : 'other';
  if (/^dup[23]?$/.test(call[1]!))
    return /^\s*(0|1|2|STD(IN|OUT|ERR)_FILENO)\s*[,)]/.test(args) ? 'stream' : 'other';
  return namesDevice(args, devices) ? 'other' : 'stream';
}

/**
 * Globals of the file assigned only stream results: each assignment of the name anywhere in the file
 * (found in the text, every function and initialiser included) is a call to a stream function or -1,
 * and its address is never taken. Read from the text alone: cheap enough for every file of a tree.
 * `shadowed`: whether the name assigned at an offset is a local or parameter there (localShadows.ts),
 * whose assignment is no assignment of the global; without it every assignment counts.
 */
export function streamGlobals(
  text: string,
  functions: ReadonlySet<string>,
  devices: ReadonlySet<string> = NO_DEVICES,
  shadowed?: (name: string, offset: number) => boolean,
): Set<string> {
  // A name is found only where some `name = f(...)` calls a stream function, or a pipe's end is
  // stored: most files have neither, and the search for every assignment was most of this function's
  // time.
  const pairs = streamPairArrays(text);
  if (pairs.size === 0 && !streamAssignment(functions).test(text)) return new Set();
  const hints = addrinfoStreams(text);
  // With scopes to ask, only the names some assignment may make a stream are searched again (each
  // of their assignments asks its scope): a file assigns its loop counters hundreds of times.
  let assigned: Iterable<RegExpMatchArray> = text.matchAll(ASSIGNED_NAME);
  if (shadowed) {
    const names = streamCandidates(text, functions, pairs);
    if (names.size === 0) return new Set();
    const named = new RegExp(`(?<![\\w.>])(${[...names].join('|')})\\s*(?:=(?!=)|[-+*/|&^]=)`, 'g');
    assigned = [...text.matchAll(named)].filter((m) => !shadowed(m[1]!, m.index ?? 0));
  }
  // Per name, whether some assignment is a stream and whether some is anything else (a sentinel is
  // neither): flags, not lists, as a file assigns its loop counters hundreds of times.
  const origins = new Map<string, { stream: boolean; other: boolean }>();
  for (const m of assigned) {
    const name = m[1]!;
    let seen = origins.get(name);
    if (!seen) origins.set(name, (seen = { stream: false, other: false }));
    if (seen.other) continue; // nothing can make it a stream again
    const at = (m.index ?? 0) + m[0].length;
    const kind =
      m[0].trimEnd().endsWith('=') && !/[-+*/|&^]=$/.test(m[0].trimEnd())
        ? assignedOrigin(text.slice(at, at + 200), functions, hints, pairs, devices)
        : 'other';
    if (kind === 'stream') seen.stream = true;
    else if (kind === 'other') seen.other = true;
  }
  const found = new Set<string>();
  for (const [name, { stream, other }] of origins) {
    if (!stream || other) continue;
    // Its address taken (`&fd` as an argument or a value): anything could change it.
    if (new RegExp(`(?:[(,=?:]|return)\\s*&\\s*${name}\\b`).test(text)) continue;
    found.add(name);
  }
  return found;
}

/**
 * The names some assignment of `text` may make a stream ({@link assignedOrigin}): `name = f(` of one of
 * `functions` (after an `(int)` cast at most), or `name = pair[` of one of `pairs`. Looser than that
 * reading, never stricter.
 */
function streamCandidates(
  text: string,
  functions: ReadonlySet<string>,
  pairs: ReadonlySet<string>,
): Set<string> {
  const callees = [...functions].filter((n) => /^\w+$/.test(n));
  const arrays = [...pairs].filter((n) => /^\w+$/.test(n));
  const values = [
    ...(callees.length > 0 ? [`(?:\\(\\s*int\\s*\\)\\s*)?(?:${callees.join('|')})\\s*\\(`] : []),
    ...(arrays.length > 0 ? [`\\(?\\s*(?:${arrays.join('|')})\\s*\\[`] : []),
  ];
  const names = new Set<string>();
  if (values.length === 0) return names;
  const pattern = new RegExp(`(?<![\\w.>])([A-Za-z_]\\w*)\\s*=\\s*(?:${values.join('|')})`, 'g');
  for (const m of text.matchAll(pattern)) names.add(m[1]!);
  return names;
}

/** Patterns of {@link streamAssignment}, by the stream functions' names. */
const assignments = new Map<string, RegExp>();

/**
 * What an assignment {@link assignedOrigin} may read as a stream holds: `=`, then a call of one of
 * `functions` (after an `(int)` cast at most). Looser than that reading, never stricter.
 */
export function streamAssignment(functions: ReadonlySet<string>): RegExp {
  const names = [...functions].filter((n) => /^\w+$/.test(n));
  const key = names.join('|');
  let pattern = assignments.get(key);
  if (!pattern) {
    pattern = names.length > 0 ? new RegExp(`=\\s*(?:\\(\\s*int\\s*\\)\\s*)?(?:${key})\\s*\\(`) : /(?!)/;
    // A file's own stream functions make a set of its own: a long-lived server meets many.
    if (assignments.size >= 64) assignments.clear();
    assignments.set(key, pattern);
  }
  return pattern;
}

/** The descriptors (canonical text) known to be byte streams inside function `fn`. */
export function functionStreams(
  fn: Node,
  locals: ReadonlySet<string>,
  file: FileStreams,
  shadows: ReadonlySet<string> = locals,
): Set<string> {
  return streamsIn(fn, file, () => ({ locals, shadows }));
}

/**
 * {@link functionStreams} with its locals and shadowing names given by `scope`, from the names the
 * function declares (its declarations' declarators, found in the search the streams need anyway).
 */
function streamsIn(
  fn: Node,
  file: FileStreams,
  scope: (declared: ReadonlySet<string>) => { locals: ReadonlySet<string>; shadows: ReadonlySet<string> },
  declares = false,
): Set<string> {
  const streams = new Set<string>();
  const declared = new Set<string>();
  const name = functionName(fn);
  const params = (name && file.parameters?.get(name)) || new Set<string>();
  // What each name is assigned: a node read against the streams known so far, or a fixed kind.
  const records = new Map<string, (Node | Origin)[]>();
  const escaped = new Set<string>();
  const pipes: string[] = [];
  const children: string[] = [];
  const record = (key: string, value: Node | Origin) =>
    records.set(key, [...(records.get(key) ?? []), value]);
  const known = (text: string) => streams.has(text);
  const kindsOf = (key: string): Origin[] =>
    (records.get(key) ?? []).map((v) =>
      typeof v === 'string' ? v : origin(v, file.functions, known, file.hints, file.devices),
    );
  const nodes = fn.descendantsOfType([
    'assignment_expression',
    'init_declarator',
    'pointer_expression',
    'call_expression',
    'declaration',
    'update_expression',
  ]);
  for (const n of nodes) {
    if (!n) continue;
    switch (n.type) {
      case 'assignment_expression': {
        const left = canonicalTarget(n.childForFieldName('left')?.text ?? '');
        const right = n.childForFieldName('right');
        const plain = n.childForFieldName('operator')?.text === '=';
        record(left, plain && right ? right : 'other');
        break;
      }
      case 'init_declarator': {
        const name = declaredName(n.childForFieldName('declarator'));
        const value = n.childForFieldName('value');
        if (name && value) record(name, value);
        if (name && declares) declared.add(name);
        break;
      }
      case 'update_expression': {
        const root = rootName(n.childForFieldName('argument') ?? n);
        if (root) escaped.add(root);
        break;
      }
      case 'pointer_expression':
        if (n.child(0)?.type === '&') {
          const root = rootName(n.childForFieldName('argument') ?? n);
          if (root) escaped.add(root);
        }
        break;
      case 'call_expression': {
        const at = C_PIPE_FUNCTIONS[calleeName(n) ?? ''];
        // The arguments of the few pipe calls only: a function makes dozens of other calls.
        if (at === undefined) break;
        const args = callArgs(n);
        if (!args[at]) break;
        if (calleeName(n) === 'socketpair' && !isStreamType(args[1]?.text ?? '', false)) break;
        pipes.push(canonicalTarget(args[at].text));
        break;
      }
      case 'declaration': {
        if (declares) {
          for (const d of n.childrenForFieldName('declarator')) {
            const local = declaredName(d);
            if (local) declared.add(local);
          }
        }
        if (!/\bstruct\s+child_process\b/.test(n.childForFieldName('type')?.text ?? '')) break;
        for (const d of n.childrenForFieldName('declarator')) {
          const name = declaredName(d);
          const pointer =
            namedKids(d).some((k) => k.type === 'pointer_declarator') || d.type === 'pointer_declarator';
          if (name) children.push(pointer ? `${name}->in` : `${name}.in`);
        }
        break;
      }
    }
  }
  const { locals, shadows } = scope(declared);
  // A parameter or local of the same name hides the global.
  for (const g of file.globals) if (!shadows.has(g)) streams.add(g);
  if (file.pairArrays && file.pairArrays.size > 0) {
    const arrays = new Set([...file.pairArrays].filter((a) => !shadows.has(a)));
    for (const element of pairElements(fn.text, arrays)) streams.add(canonicalTarget(element));
  }
  // `output = ttyfd` after `ttyfd = open(...)`: a name copied from a stream is one, so the names are
  // read again until no more turn out to be streams (each round adds one at least, or stops).
  for (let added = true; added;) {
    added = false;
    for (const key of records.keys()) {
      if (streams.has(key) || !locals.has(key) || escaped.has(key)) continue;
      const kinds = kindsOf(key);
      if (kinds.includes('stream') && !kinds.includes('other')) {
        streams.add(key);
        added = true;
      }
    }
  }
  // A parameter every caller passes a stream in stays one while the function only copies it around.
  for (const p of params) {
    const kinds = kindsOf(p);
    if (!escaped.has(p) && !kinds.includes('other')) streams.add(p);
  }
  for (const arr of pipes) {
    const root = /^[A-Za-z_]\w*/.exec(arr)?.[0] ?? '';
    const touched = [...records.keys()].some((k) => k.startsWith(`${arr}[`)) || escaped.has(root);
    if (!touched) for (const end of ['0', '1']) streams.add(`${arr}[${end}]`);
  }
  // A child started with `in = -1` gets a pipe to its stdin; any other value is the caller's descriptor.
  for (const key of children) {
    const kinds = kindsOf(key);
    if (kinds.length > 0 && kinds.every((k) => k === 'sentinel')) streams.add(key);
  }
  return streams;
}

/** A function definition with the text of its body. */
interface Body {
  readonly fn: Node;
  readonly text: string;
}

/** The calls `fn` makes, by the name called (calls through a pointer left out). */
function callsByName(fn: Node): Map<string, Node[]> {
  const byName = new Map<string, Node[]>();
  for (const c of fn.descendantsOfType('call_expression')) {
    const name = c && calleeName(c);
    if (!c || !name) continue;
    const list = byName.get(name);
    if (list) list.push(c);
    else byName.set(name, [c]);
  }
  return byName;
}

/**
 * The parameters of the file's static functions that take a byte stream from every caller: the
 * function is `static` (no caller elsewhere), its name is only ever called (never taken as a pointer),
 * and each call in the file passes, in that place, a descriptor its caller knows to be a stream.
 * Only functions whose body makes a plain write are looked at. Callers that are such functions
 * themselves are read with what is known so far, until nothing more is learnt.
 */
export function streamParameters(
  bodies: readonly Body[],
  file: FileStreams,
  text: string,
  plainWrite: RegExp,
): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  const candidates = bodies.filter((b) => plainWrite.test(b.text) && isStaticDefinition(b.fn));
  if (candidates.length === 0) return found;
  const withFound: FileStreams = { ...file, parameters: found };
  // Each caller's calls are searched once, for every candidate and round.
  const callsOf = new Map<Node['id'], Map<string, Node[]>>();
  const calling = (fn: Node, name: string): Node[] => {
    let byName = callsOf.get(fn.id);
    if (!byName) callsOf.set(fn.id, (byName = callsByName(fn)));
    return byName.get(name) ?? [];
  };
  // Where each candidate is called, the same in every round: undefined where it is used otherwise
  // than called (every mention of the name is followed by `(`: definitions, prototypes and calls, no
  // pointer). Searching the whole text for a name once, not once per round.
  const sitesOf = new Map<Node['id'], { caller: Node; args: Node[] }[] | undefined>();
  const callSites = (fn: Node, name: string) => {
    if (sitesOf.has(fn.id)) return sitesOf.get(fn.id);
    let sites: { caller: Node; args: Node[] }[] | undefined;
    const mentions = [...text.matchAll(new RegExp(`\\b${name}\\b(\\s*\\()?`, 'g'))];
    if (!mentions.some((m) => m[1] === undefined)) {
      const call = new RegExp(`\\b${name}\\s*\\(`);
      sites = bodies
        .filter((b) => b.fn !== fn && call.test(b.text))
        .flatMap((b) => calling(b.fn, name).map((c) => ({ caller: b.fn, args: callArgs(c) })));
    }
    sitesOf.set(fn.id, sites);
    return sites;
  };
  for (let round = 0, learnt = true; learnt && round < 4; round++) {
    learnt = false;
    const callerStreams = new Map<Node['id'], Set<string>>();
    const streamsOf = (caller: Node) => {
      let known = callerStreams.get(caller.id);
      if (!known) {
        // The caller's own names come from the search its streams make.
        const params = parameterNames(caller).filter((n): n is string => !!n);
        known = streamsIn(
          caller,
          withFound,
          (locals) => ({ locals, shadows: new Set([...locals, ...params]) }),
          true,
        );
        callerStreams.set(caller.id, known);
      }
      return known;
    };
    for (const { fn } of candidates) {
      const name = functionName(fn);
      if (!name || found.has(name)) continue;
      const sites = callSites(fn, name);
      if (!sites || sites.length === 0) continue;
      const params = parameterNames(fn);
      const streams = new Set<string>();
      params.forEach((p, i) => {
        if (!p) return;
        const all = sites.every(({ caller, args }) => {
          const arg = args[i];
          const target = arg ? canonicalTarget(arg.text) : '';
          return target === '1' || target === '2' || streamsOf(caller).has(target);
        });
        if (all) streams.add(p);
      });
      if (streams.size > 0) {
        found.set(name, streams);
        learnt = true;
      }
    }
  }
  return found;
}

/** The definition is `static` (its name is not visible to other files). */
export function isStaticDefinition(fn: Node): boolean {
  return namedKids(fn).some((k) => k.type === 'storage_class_specifier' && k.text === 'static');
}
