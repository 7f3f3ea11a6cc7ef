// Text looked up in a message catalogue is still a literal. Programs translated with GNU gettext hand
// their messages through `_("...")` (the manual's conventional macro for `gettext`), `N_("...")` (a
// marker that expands to its argument) or the `gettext` family itself: `fprintf(stderr, _("cannot
// write '%s'"), name)`, `die(_("short write to %d"), fd)`. The lookup prints nothing and changes
// nothing its caller reads; what it returns is the format, and the values after it are what the
// message reports. Read as a plain format, such a call neither hides where the format starts (the
// descriptor a message reports is no descriptor it writes) nor counts as a call that may do output.
import type { Node } from 'web-tree-sitter';
import { MESSAGE_CATALOGUE } from '../catalogue';
import { callArgs, withoutCasts } from './syntax';

const STRING_TYPES: ReadonlySet<string> = new Set(['string_literal', 'concatenated_string']);

/**
 * True when `node` is a format the code spells out: a string literal, or a message-catalogue lookup
 * given one (`_("cannot write '%s'")`, `ngettext("%d byte", "%d bytes", n)`).
 */
export function formatText(node: Node): boolean {
  const n = withoutCasts(node);
  if (STRING_TYPES.has(n.type)) return true;
  if (n.type !== 'call_expression') return false;
  const callee = n.childForFieldName('function');
  if (callee?.type !== 'identifier' || !MESSAGE_CATALOGUE.has(callee.text)) return false;
  const first = callArgs(n).find((a) => STRING_TYPES.has(withoutCasts(a).type));
  return first !== undefined;
}
