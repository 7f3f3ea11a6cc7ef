// A helper's descriptor spelled through the caller's own local: a driver's functions start with
// `struct state *p = dev->priv;` and write to `p->fd`, while a call of a helper that does the
// same inside (`cursor(dev, on)`) reaches `dev->priv->fd` through its argument. The
// local copies that member path and neither it nor what it copies changes in the function (see
// aliases.ts), so both spellings name one descriptor; spelled the way the caller writes it, the helper's
// write joins the caller's writes, and what the caller knows of `p->fd` (opened as a stream) holds for it.
import type { Node } from 'web-tree-sitter';
import { descriptorAliases } from './aliases';

/** A member path through a pointer (`dev->priv`): what a pointer local may copy. */
const PATH = /^[A-Za-z_]\w*(?:(?:->|\.)[A-Za-z_]\w*)*$/;

/**
 * The locals of a function that copy a member path through a pointer and keep it, by name, with the
 * path (see descriptorAliases: neither the local nor the path it copies changes in the function; its
 * members may). `changes`, `bare` and `body` as descriptorAliases takes them.
 */
export function pointerCopies(
  changes: readonly Node[],
  bare: ReadonlySet<string>,
  body: Node,
): Map<string, string> {
  const copies = new Map<string, string>();
  for (const [name, text] of descriptorAliases(changes, bare, body, true))
    if (text.includes('->') && PATH.test(text)) copies.set(name, text);
  return copies;
}

/**
 * `target` (a helper's descriptor mapped into the caller, canonical) with its leading member path
 * replaced by the caller's local that copies that path (`named`: see {@link pointerCopies} and
 * CContext.pointerCopies): `dev->priv->fd`
 * is `p->fd` where `p` copies `dev->priv`. The longest copied path wins; a target no local's
 * copy leads is returned as it is. Does not modify `named`.
 */
export function spelledThroughLocal(target: string, named: ReadonlyMap<string, string> | undefined): string {
  if (!named || named.size === 0 || !target.includes('->')) return target;
  let best: { name: string; text: string } | undefined;
  for (const [name, text] of named) {
    if (!target.startsWith(`${text}->`) && !target.startsWith(`${text}.`)) continue;
    if (!best || text.length > best.text.length || (text.length === best.text.length && name < best.name))
      best = { name, text };
  }
  return best ? `${best.name}${target.slice(best.text.length)}` : target;
}
