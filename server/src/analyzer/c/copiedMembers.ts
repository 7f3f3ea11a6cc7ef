// A member filled from a local rather than straight from the call (`fdout = mkstemp(template); ...
// jr->output_fd = fdout;`): a helper that opens a descriptor, checks it, sets it up and then stores it
// in the caller's struct. The member holds what the local holds, so the member assignment has the
// local's origin when every assignment of the local in its function is a stream call (or the -1
// placeholder). Read from the text alone, as memberOrigins.ts reads member assignments.
import { assignedOrigin, type Origin } from './origins';

/** A function's closing brace at the start of a line: what ends the function before `at`. */
const FUNCTION_END = /\n\}/g;

/** How far back the local's function is looked for. */
const SCOPE = 20_000;

/**
 * The origin of the plain name `name` stored into a member at offset `at` of `text`: the kinds of
 * every `name = value` and `T name = value` from the start of its function (after the last function
 * before it ends) up to `at`, read by {@link assignedOrigin}. A stream when one is a stream and none is
 * anything else; `other` when an assignment is not a stream call, the name is changed another way
 * (`name++`, `name += n`) or its address is taken (`&name`), or none is found (a parameter or a global,
 * which memberOrigins.ts does not follow).
 */
export function copiedOrigin(
  text: string,
  at: number,
  name: string,
  functions: ReadonlySet<string>,
  hints: boolean,
  pairs?: ReadonlySet<string>,
  devices?: ReadonlySet<string>,
): Origin {
  const from = Math.max(0, at - SCOPE);
  const end = lastFunctionEnd(text, from, at);
  const body = text.slice(end === undefined ? from : end + 2, at);
  if (changedIn(body, name)) return 'other';
  const kinds: Origin[] = [];
  for (const after of assignedIn(body, name))
    kinds.push(assignedOrigin(body.slice(after, after + 200), functions, hints, pairs, devices));
  if (kinds.includes('other') || !kinds.includes('stream')) return 'other';
  return 'stream';
}

/**
 * Where each function of the last text asked about ends ({@link FUNCTION_END}, in order): a file's
 * member assignments each look back for theirs, and a search up to {@link SCOPE} characters back for
 * each read the same text again for every one.
 */
let ends: { text: string; at: number[] } | undefined;

/** The offset of the last {@link FUNCTION_END} match in `text` at or after `from` and before `at`. */
function lastFunctionEnd(text: string, from: number, at: number): number | undefined {
  if (ends?.text !== text) {
    const found: number[] = [];
    for (const m of text.matchAll(FUNCTION_END)) found.push(m.index);
    ends = { text, at: found };
  }
  const all = ends.at;
  // The first match at or after `at`, then the one before it.
  let low = 0;
  let high = all.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (all[mid]! < at) low = mid + 1;
    else high = mid;
  }
  const last = all[low - 1];
  return last !== undefined && last >= from ? last : undefined;
}

// The local's uses are found from its name, a literal, and only then read around: a pattern led by a
// look-behind or a word boundary is tried at every character of the function, for each member stored.

/** After a name: an increment, a decrement or a compound assignment (sticky). */
const CHANGE_AFTER = /\s*(?:\+\+|--|[-+*/|&^]=)/y;

/** After a name: a plain assignment (sticky). */
const ASSIGNMENT_AFTER = /\s*=(?!=)/y;

const WORD = /\w/;
const SPACE = /\s/;
const NOT_AFTER = /[\w.>]/;

/** Where `name` (a C identifier) stands in `text`, in order. */
function* occurrences(text: string, name: string): Generator<number> {
  for (let i = text.indexOf(name); i >= 0; i = text.indexOf(name, i + 1)) yield i;
}

/**
 * True when `body` takes the address of `name`, increments or decrements it, or assigns it with an
 * operator: `&name`, `name++`, `name += n`, `--name` (the name a whole word where it ends the match).
 */
function changedIn(body: string, name: string): boolean {
  for (const i of occurrences(body, name)) {
    const end = i + name.length;
    const endsWord = end >= body.length || !WORD.test(body[end]!);
    let k = i - 1;
    while (k >= 0 && SPACE.test(body[k]!)) k--;
    if (endsWord && k >= 0 && body[k] === '&') return true;
    if (endsWord && k >= 1 && (body[k] === '+' || body[k] === '-') && body[k - 1] === body[k]) return true;
    if (i > 0 && WORD.test(body[i - 1]!)) continue;
    CHANGE_AFTER.lastIndex = end;
    if (CHANGE_AFTER.test(body)) return true;
  }
  return false;
}

/**
 * The offsets just past each plain assignment of `name` in `body` (`name = v`, `T name = v`), not of
 * a longer name or a member (`x.name =`, `p->name =`).
 */
function assignedIn(body: string, name: string): number[] {
  const found: number[] = [];
  let from = 0;
  for (const i of occurrences(body, name)) {
    if (i < from || (i > 0 && NOT_AFTER.test(body[i - 1]!))) continue;
    ASSIGNMENT_AFTER.lastIndex = i + name.length;
    if (!ASSIGNMENT_AFTER.test(body)) continue;
    from = ASSIGNMENT_AFTER.lastIndex;
    found.push(from);
  }
  return found;
}
