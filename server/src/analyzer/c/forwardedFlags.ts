// A helper of C strings or of one buffer may pass its own `send()` flags on to another helper that
// takes flags (`send_str(fd, s, flags)` returning `send_all(fd, s, strlen(s), flags)`): it is a write
// helper too, and the flags of each of its calls are its caller's, read at that call as for the helper
// it wraps. Or it passes constant flags (`send_all(fd, s, n, MSG_NOSIGNAL)`): then its calls are plain
// writes, as long as those flags ask for no out-of-band data. Anything else (`flags | MSG_MORE`, a
// variable of its own) leaves the flags unknown here, and the function is no helper.
import type { Node } from 'web-tree-sitter';
import { callArgs, unwrap } from './syntax';
import { constantFlags } from './writes';

/**
 * What a call of a flags-taking helper, at argument index `slot`, passes as flags, read inside the
 * function of parameters `params`: `{ forwarded: slot }` when it passes one of those parameters as it
 * is (the caller's flags), `{}` when it passes constant flags without `MSG_OOB`, and undefined otherwise.
 */
export function forwardedFlags(
  call: Node,
  slot: number,
  params: readonly (string | undefined)[],
): { readonly forwarded?: number } | undefined {
  const given = callArgs(call)[slot];
  if (!given) return undefined;
  const bare = unwrap(given);
  if (bare.type === 'identifier' && params.includes(bare.text)) return { forwarded: slot };
  return constantFlags(given.text.replace(/\s+/g, ' ')) ? {} : undefined;
}
