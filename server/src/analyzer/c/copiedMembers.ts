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
): Origin {
  const from = Math.max(0, at - SCOPE);
  const end = lastFunctionEnd(text, from, at);
  const body = text.slice(end === undefined ? from : end + 2, at);
  const { changed, assigned } = namePatterns(name);
  if (changed.test(body)) return 'other';
  const kinds: Origin[] = [];
  for (const m of body.matchAll(assigned)) {
    const after = m.index + m[0].length;
    kinds.push(assignedOrigin(body.slice(after, after + 200), functions, hints));
  }
  if (kinds.includes('other') || !kinds.includes('stream')) return 'other';
  return 'stream';
}

/**
 * Where each function of the last text asked about ends ({@link FUNCTION_END}, in order): a file's
 * member assignments each look back for theirs, and searching up to {@link SCOPE} characters back for
 * each was most of the time spent here.
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

/** The patterns of {@link copiedOrigin} for a name, kept: a file stores the same few locals. */
const patterns = new Map<string, { changed: RegExp; assigned: RegExp }>();
const PATTERNS_KEPT = 1024;

function namePatterns(name: string): { changed: RegExp; assigned: RegExp } {
  let kept = patterns.get(name);
  if (!kept) {
    if (patterns.size >= PATTERNS_KEPT) patterns.clear();
    kept = {
      // Not global: `test` keeps no state in it.
      changed: new RegExp(
        `&\\s*${name}\\b|\\b${name}\\s*(?:\\+\\+|--|[-+*/|&^]=)|(?:\\+\\+|--)\\s*${name}\\b`,
      ),
      // Global, read only through matchAll, which searches a copy.
      assigned: new RegExp(`(?<![\\w.>])${name}\\s*=(?!=)`, 'g'),
    };
    patterns.set(name, kept);
  }
  return kept;
}
