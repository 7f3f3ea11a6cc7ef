/**
 * The shallow and deepen lines of a fetch (gitprotocol-pack(5), gitprotocol-v2(5)): `shallow <oid>`
 * from a client that is already shallow, and one way of deepening: `deepen <depth>`,
 * `deepen-since <timestamp>` and/or `deepen-not <ref>`, with `deepen-relative` (a capability in v0,
 * an argument in v2). Parsed as git's upload-pack parses them, numbers included (C's `strtol` and
 * `strtoumax` with base 0: `0x10` is 16, `010` is 8), and refused in git's words.
 */
import { UploadPackError } from './errors';

/** The `deepen` value git's `--unshallow` sends: "infinite" depth. */
export const INFINITE_DEPTH = 0x7fffffff;

/** What the client asked about shallowness. */
export interface ShallowAsk {
  /** The client's shallow commits the repository has, in the client's order, without repeats. */
  readonly shallows: readonly string[];
  /** `deepen <n>` (`--depth`, `--deepen`, `--unshallow`), as git's int; 0 when absent. */
  readonly depth: number;
  /**
   * `deepen-since`, as the decimal text git passes to `rev-list --max-age` ('0' when absent or 0:
   * git then lists without a date bound).
   */
  readonly since: string;
  /** The full ref names of `deepen-not` lines, in order. */
  readonly notRefs: readonly string[];
  /** Whether `deepen-since` or `deepen-not` was given: the boundary comes from a rev-list. */
  readonly byRevList: boolean;
  /** `deepen-relative`: `depth` counts from the client's shallow commits, not from the wants. */
  readonly relative: boolean;
}

/** Whether the ask changes anything: a deepen, or shallow commits of the client. */
export function asksShallow(ask: ShallowAsk | undefined): ask is ShallowAsk {
  return ask !== undefined && (ask.depth > 0 || ask.byRevList || ask.shallows.length > 0);
}

/** What parsing needs to know of the repository, each asked once for all lines. */
export interface ShallowLookup {
  /** The type of each object the repository has (`commit`, `tree`, ...); absent ones are missing. */
  types(oids: readonly string[]): Promise<Map<string, string>>;
  /** How many refs `name` may mean by git's rules (`v1` is `refs/tags/v1`...), and the first. */
  expandRef(name: string): { count: number; ref?: string };
}

/** A request's shallow ask, or its first refusal with the position of its line. */
export type ParsedShallow = { ask: ShallowAsk } | { at: number; error: UploadPackError };

/** A line with its position among all the request's lines (for git's order of refusals). */
export interface NumberedLine {
  readonly text: string;
  readonly at: number;
}

/** The verbs of the lines this file parses. */
export function isShallowVerb(verb: string): boolean {
  return verb === 'shallow' || verb === 'deepen' || verb === 'deepen-since' || verb === 'deepen-not';
}

const HEX = /^[0-9a-fA-F]+$/;

/** The result of C's `strtol`/`strtoumax` on `text` with base 0: the value and where parsing ended. */
function cInteger(text: string): { value: bigint; end: number; overflow: boolean } {
  let at = 0;
  while (at < text.length && ' \t\n\v\f\r'.includes(text[at]!)) at++;
  let negative = false;
  if (text[at] === '+' || text[at] === '-') negative = text[at++] === '-';
  let base = 10;
  if (
    text[at] === '0' &&
    (text[at + 1] === 'x' || text[at + 1] === 'X') &&
    /[0-9a-fA-F]/.test(text[at + 2] ?? '')
  ) {
    base = 16;
    at += 2;
  } else if (text[at] === '0') base = 8;
  const digits = base === 16 ? /[0-9a-fA-F]/ : base === 8 ? /[0-7]/ : /[0-9]/;
  const start = at;
  let value = 0n;
  while (at < text.length && digits.test(text[at]!))
    value = value * BigInt(base) + BigInt(parseInt(text[at++]!, 16));
  // No digits: C leaves the end pointer at the start of the whole text.
  if (at === start) return { value: 0n, end: 0, overflow: false };
  const overflow = value > 0xffffffffffffffffn;
  return { value: negative ? -value : value, end: at, overflow };
}

/** `deepen <n>`: git reads a long with base 0, keeps it as an int, and refuses what is not above 0. */
function parseDepth(arg: string, line: string): number {
  const { value, end } = cInteger(arg);
  // strtol saturates at the long range; the cast to int then keeps the low 32 bits.
  const long =
    value > 0x7fffffffffffffffn
      ? 0x7fffffffffffffffn
      : value < -0x8000000000000000n
        ? -0x8000000000000000n
        : value;
  const depth = Number(BigInt.asIntN(32, long));
  if (end !== arg.length || depth <= 0) throw new UploadPackError(`Invalid deepen: ${line}`);
  return depth;
}

/** `deepen-since <t>`: an unsigned 64-bit value (negatives wrap, as strtoumax does); the maximum is refused. */
function parseSince(arg: string, line: string): string {
  const { value, end, overflow } = cInteger(arg);
  const max = 0xffffffffffffffffn;
  const since = overflow ? max : BigInt.asUintN(64, value);
  if (end !== arg.length || since === max) throw new UploadPackError(`Invalid deepen-since: ${line}`);
  return since.toString();
}

/**
 * Parses the shallow and deepen lines of one request, as git does line by line: the first bad line
 * (in the request's order) is the refusal. A shallow line naming an object the repository lacks is
 * ignored (the client may have commits this repository never had); one naming a non-commit is refused.
 *
 * @param relative - `deepen-relative` was asked (v0 capability, or v2 argument).
 * @returns the ask, or the first refusal and the position of its line.
 */
export async function parseShallowLines(
  lines: readonly NumberedLine[],
  relative: boolean,
  objectFormat: 'sha1' | 'sha256',
  lookup: ShallowLookup,
): Promise<ParsedShallow> {
  const size = objectFormat === 'sha256' ? 64 : 40;
  // git reads the object id's hex digits (either case) and ignores whatever follows them.
  const shallowOid = (text: string): string | undefined => {
    const oid = text.slice('shallow '.length, 'shallow '.length + size);
    return oid.length === size && HEX.test(oid) ? oid.toLowerCase() : undefined;
  };
  const candidates = lines.map((l) => (l.text.startsWith('shallow ') ? shallowOid(l.text) : undefined));
  const wanted = [...new Set(candidates.filter((oid): oid is string => oid !== undefined))];
  const types = wanted.length > 0 ? await lookup.types(wanted) : new Map<string, string>();
  const shallows: string[] = [];
  let depth = 0;
  let since = '0';
  let byRevList = false;
  const notRefs: string[] = [];
  for (const [i, { text, at }] of lines.entries()) {
    try {
      if (text.startsWith('shallow ')) {
        const oid = candidates[i];
        if (oid === undefined) throw new UploadPackError(`invalid shallow line: ${text}`);
        const type = types.get(oid);
        if (type === undefined) continue;
        if (type !== 'commit') throw new UploadPackError(`invalid shallow object ${oid}`);
        if (!shallows.includes(oid)) shallows.push(oid);
      } else if (text.startsWith('deepen ')) {
        depth = parseDepth(text.slice('deepen '.length), text);
      } else if (text.startsWith('deepen-since ')) {
        since = parseSince(text.slice('deepen-since '.length), text);
        byRevList = true;
      } else if (text.startsWith('deepen-not ')) {
        const { count, ref } = lookup.expandRef(text.slice('deepen-not '.length));
        if (count !== 1 || ref === undefined)
          throw new UploadPackError(`git upload-pack: ambiguous deepen-not: ${text}`);
        notRefs.push(ref);
        byRevList = true;
      } else {
        throw new UploadPackError(
          `git upload-pack: protocol error, expected to get object ID, not '${text}'`,
        );
      }
    } catch (error) {
      if (error instanceof UploadPackError) return { at, error };
      throw error;
    }
  }
  return { ask: { shallows, depth, since, notRefs, byRevList, relative } };
}

/** The ref-name rules git tries for a short name, in order (as `git rev-parse` documents them). */
const REF_RULES = [
  '%s',
  'refs/%s',
  'refs/tags/%s',
  'refs/heads/%s',
  'refs/remotes/%s',
  'refs/remotes/%s/HEAD',
];

/**
 * How many refs `name` may mean among `refs` (full names, HEAD included when it resolves) by git's
 * rules, and the first one. Pseudo-refs other than HEAD (FETCH_HEAD...) are not considered.
 */
export function expandRefName(name: string, refs: ReadonlySet<string>): { count: number; ref?: string } {
  let count = 0;
  let first: string | undefined;
  for (const rule of REF_RULES) {
    const full = rule.replace('%s', name);
    if (!refs.has(full)) continue;
    count++;
    first ??= full;
  }
  return first === undefined ? { count } : { count, ref: first };
}
