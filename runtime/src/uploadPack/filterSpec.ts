/**
 * Object filters of partial clones (`git clone --filter=<spec>`), as git-rev-list(1) documents
 * them: `blob:none`, `blob:limit=<n>[kmg]`, `object:type=<type>`, `tree:<depth>`,
 * `sparse:oid=<blob-ish>` and `combine:<f1>+<f2>...` (sub-filters percent-encoded). Parsed with the
 * same acceptance and the same messages as git's upload-pack (checked against git 2.39 by the
 * tests), and written back in one canonical form: the form that keys the pack cache and that
 * `git pack-objects --filter=` receives, so the key always says what was packed.
 */
import { UploadPackError } from './errors';

/** One parsed filter. */
export type FilterSpec =
  | { readonly kind: 'blob:none' }
  | { readonly kind: 'blob:limit'; readonly bytes: bigint }
  | { readonly kind: 'object:type'; readonly type: 'tag' | 'commit' | 'tree' | 'blob' }
  | { readonly kind: 'tree'; readonly depth: bigint }
  | { readonly kind: 'sparse:oid'; readonly expression: string }
  | { readonly kind: 'combine'; readonly filters: readonly FilterSpec[] };

/** The largest value git's `unsigned long` parser accepts (64-bit platforms). */
const ULONG_MAX = (1n << 64n) - 1n;

/** Unit suffixes of git's numbers (`1k` is 1024). */
const UNITS: Readonly<Record<string, bigint>> = {
  '': 1n,
  k: 1n << 10n,
  m: 1n << 20n,
  g: 1n << 30n,
};

/** Why a number was refused, in the words git's config errors use. */
export type NumberProblem = 'invalid unit' | 'out of range';

/**
 * An unsigned number as git reads one (`blob:limit=`, `tree:`, numeric config values): leading
 * white space and a `+` allowed, `0x` hexadecimal and `0` octal prefixes (C's base 0), an
 * optional `k`/`m`/`g` unit in either case; no minus sign anywhere; at most 2^64-1.
 */
export function parseUnsigned(text: string): { value: bigint } | { problem: NumberProblem } {
  if (text === '' || text.includes('-')) return { problem: 'invalid unit' };
  let at = 0;
  while (at < text.length && ' \t\n\v\f\r'.includes(text[at]!)) at++;
  if (text[at] === '+') at++;
  let base = 10n;
  let digits = '0123456789';
  if (text[at] === '0' && /^[xX][0-9a-fA-F]/.test(text.slice(at + 1, at + 3))) {
    base = 16n;
    digits = '0123456789abcdef';
    at += 2;
  } else if (text[at] === '0') {
    base = 8n;
    digits = '01234567';
  }
  const start = at;
  let value = 0n;
  let overflow = false;
  while (at < text.length && digits.includes(text[at]!.toLowerCase())) {
    value = value * base + BigInt(digits.indexOf(text[at]!.toLowerCase()));
    if (value > ULONG_MAX) overflow = true;
    at++;
  }
  // Without a digit, C's strtoumax reads nothing: the whole text is then taken as the unit.
  const unit = UNITS[(at === start ? text : text.slice(at)).toLowerCase()];
  if (overflow) return { problem: 'out of range' };
  if (at === start || unit === undefined) return { problem: 'invalid unit' };
  if (value * unit > ULONG_MAX) return { problem: 'out of range' };
  return { value: value * unit };
}

/** A refusal git's upload-pack gives by dying, with no ERR packet: the client sees the hang-up. */
function refuse(message: string): UploadPackError {
  return new UploadPackError(message);
}

/** Characters a sub-filter of `combine:` must percent-encode (besides `%` and `+`). */
const RESERVED = new Set('~!@#$^&*()[]{}\\;",<>?\'`');

function isReserved(ch: string): boolean {
  const code = ch.codePointAt(0)!;
  return code <= 0x20 || code >= 0x80 || RESERVED.has(ch);
}

/** Percent-decodes a sub-filter: `%XX` becomes that byte, except `%00`; other `%` stay as they are. */
function percentDecode(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  const out: number[] = [];
  const hex = /^[0-9a-fA-F]{2}$/;
  for (let i = 0; i < bytes.length; i++) {
    const pair = bytes.subarray(i + 1, i + 3).toString('latin1');
    if (bytes[i] === 0x25 && hex.test(pair) && pair !== '00') {
      out.push(parseInt(pair, 16));
      i += 2;
    } else out.push(bytes[i]!);
  }
  return Buffer.from(out).toString('utf8');
}

/**
 * The sub-filters of a `combine:` body: split after each `+`; every piece but the last loses its
 * `+` (so a trailing `+` stays on the last piece, and `++` gives an empty one), as git splits them.
 */
function splitCombine(body: string): string[] {
  const pieces: string[] = [];
  let from = 0;
  for (let plus = body.indexOf('+'); plus >= 0; plus = body.indexOf('+', from)) {
    pieces.push(body.slice(from, plus + 1));
    from = plus + 1;
  }
  if (from < body.length) pieces.push(body.slice(from));
  return pieces.map((piece, i) => (i < pieces.length - 1 ? piece.slice(0, -1) : piece));
}

/**
 * Parses one filter-spec.
 *
 * @throws {@link UploadPackError} with git's message (`invalid filter-spec '<spec>'`,
 *   `expected 'tree:<depth>'`, `must escape char in sub-filter-spec: '<c>'`, ...).
 */
export function parseFilterSpec(text: string): FilterSpec {
  if (text === 'blob:none') return { kind: 'blob:none' };
  if (text.startsWith('blob:limit=')) {
    const n = parseUnsigned(text.slice('blob:limit='.length));
    if ('value' in n) return { kind: 'blob:limit', bytes: n.value };
  } else if (text.startsWith('object:type=')) {
    const type = text.slice('object:type='.length);
    if (type === 'tag' || type === 'commit' || type === 'tree' || type === 'blob') {
      return { kind: 'object:type', type };
    }
    throw refuse(`'${type}' for 'object:type=<type>' is not a valid object type`);
  } else if (text.startsWith('tree:')) {
    const n = parseUnsigned(text.slice('tree:'.length));
    if ('value' in n) return { kind: 'tree', depth: n.value };
    throw refuse(`expected 'tree:<depth>'`);
  } else if (text.startsWith('sparse:oid=')) {
    return { kind: 'sparse:oid', expression: text.slice('sparse:oid='.length) };
  } else if (text.startsWith('sparse:path=')) {
    throw refuse('sparse:path filters support has been dropped');
  } else if (text.startsWith('combine:')) {
    const body = text.slice('combine:'.length);
    if (body === '') throw refuse('expected something after combine:');
    const filters: FilterSpec[] = [];
    for (const piece of splitCombine(body)) {
      const reserved = [...piece].find(isReserved);
      if (reserved !== undefined) throw refuse(`must escape char in sub-filter-spec: '${reserved}'`);
      filters.push(parseFilterSpec(percentDecode(piece)));
    }
    return { kind: 'combine', filters };
  }
  throw refuse(`invalid filter-spec '${text}'`);
}

/** Percent-encodes what a sub-filter may not hold as it is. */
function percentEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out +=
      isReserved(ch) || ch === '%' || ch === '+'
        ? `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
        : ch;
  }
  return out;
}

/**
 * The canonical text of a filter: numbers in decimal without units, sub-filters decoded and
 * re-encoded one way, and each `sparse:oid` expression replaced by what `resolved` maps it to
 * (an object id), when it does. Two specs with the same canonical text select the same objects;
 * `git pack-objects --filter=` reads it as it reads the original.
 */
export function canonicalFilter(spec: FilterSpec, resolved: ReadonlyMap<string, string> = new Map()): string {
  switch (spec.kind) {
    case 'blob:none':
      return 'blob:none';
    case 'blob:limit':
      return `blob:limit=${spec.bytes}`;
    case 'object:type':
      return `object:type=${spec.type}`;
    case 'tree':
      return `tree:${spec.depth}`;
    case 'sparse:oid':
      return `sparse:oid=${resolved.get(spec.expression) ?? spec.expression}`;
    case 'combine':
      return `combine:${spec.filters.map((f) => percentEncode(canonicalFilter(f, resolved))).join('+')}`;
  }
}

/** Every `sparse:oid` expression of a filter, in order. */
export function sparseExpressions(spec: FilterSpec): string[] {
  if (spec.kind === 'sparse:oid') return [spec.expression];
  if (spec.kind === 'combine') return spec.filters.flatMap(sparseExpressions);
  return [];
}
