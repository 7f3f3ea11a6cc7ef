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
  let start = from;
  FUNCTION_END.lastIndex = from;
  for (let m = FUNCTION_END.exec(text); m && m.index < at; m = FUNCTION_END.exec(text)) start = m.index + 2;
  const body = text.slice(start, at);
  if (
    new RegExp(`&\\s*${name}\\b|\\b${name}\\s*(?:\\+\\+|--|[-+*/|&^]=)|(?:\\+\\+|--)\\s*${name}\\b`).test(
      body,
    )
  )
    return 'other';
  const kinds: Origin[] = [];
  for (const m of body.matchAll(new RegExp(`(?<![\\w.>])${name}\\s*=(?!=)`, 'g'))) {
    const after = m.index + m[0].length;
    kinds.push(assignedOrigin(body.slice(after, after + 200), functions, hints));
  }
  if (kinds.includes('other') || !kinds.includes('stream')) return 'other';
  return 'stream';
}
