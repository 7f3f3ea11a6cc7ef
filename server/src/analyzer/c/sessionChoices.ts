// A helper that writes a connection's bytes through its TLS session or to its descriptor (see
// sessionAlternatives.ts) picks the path by a test of the connection. Three facts about that choice:
//
// - The test may leave instead of branching: `if (c->secure) return tls_send_all(c->tls, buf, len);
//   return send_all(c->fd, buf, len);` runs one path or the other, as an if/else does.
// - The session must be the same connection's: a session reached through another object
//   (`c->twin->tls` beside `c->fd`) sends the bytes to another peer.
// - What the test reads decides where each call's bytes go: a caller that changes it between two calls
//   (`c->secure = 1;` after a STARTTLS answer) sends the second call elsewhere, so the run ends there.
import type { Node } from 'web-tree-sitter';
import { refusesBefore } from './refusalPaths';
import { withoutCasts } from './syntax';

/**
 * True when one of `a` and `b` is inside an `if` ahead of the other whose consequence leaves the
 * function (its last statement returns): that `if`'s path and the code after it never both run.
 */
export function returningAlternative(a: Node, b: Node, body: Node): boolean {
  return refusesBefore(a, b, body) || refusesBefore(b, a, body);
}

/** The object a member descriptor belongs to (`c` of `c->fd`, `c->link` of `c->link->fd`), spelled bare. */
function ownerOf(fd: string): string | undefined {
  const m = /^(.+?)(?:->|\.)[A-Za-z_]\w*$/.exec(fd);
  return m?.[1];
}

/**
 * False when the descriptor is a member of an object (`c->fd`) and every argument of `session` that
 * reaches that object's root goes further than one member of the object (`c->twin->tls`): the session
 * belongs to another peer. An argument that does not name the root (a local session pointer, a global)
 * says nothing either way.
 */
export function samePeer(session: Node, fd: string): boolean {
  const owner = ownerOf(fd);
  if (!owner) return true;
  const root = /^[A-Za-z_]\w*/.exec(owner)?.[0];
  if (!root) return true;
  const spelled = session.namedChildren
    .find((n) => n?.type === 'argument_list')
    ?.namedChildren.filter((n): n is Node => !!n && n.type !== 'comment')
    .map((a) => withoutCasts(a).text.replace(/\s+/g, '').replace(/^&/, ''));
  const rooted = (spelled ?? []).filter((a) => a === root || new RegExp(`^${root}(?:->|\\.|\\[)`).test(a));
  if (rooted.length === 0) return true;
  const escaped = owner.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const own = new RegExp(`^(?:\\*?${escaped}|${escaped}(?:->|\\.)[A-Za-z_]\\w*)$`);
  return rooted.some((a) => own.test(a));
}

/** A parameter's part a helper tests to pick its path: its member path (`->secure`), or `''` for all of it. */
export interface ChoicePath {
  readonly param: number;
  readonly path: string;
}

/**
 * What the test separating `session` from `write` reads of the helper's parameters: the innermost `if`
 * with one of the two in an arm and the other outside that arm. Each parameter read through members
 * gives its member path (`c->secure` gives `->secure`), any other read gives the whole parameter. Empty
 * when no such `if` is found (an `#ifdef`-split spelling's test is still an `if`).
 */
export function choicePaths(
  session: Node,
  write: Node,
  params: readonly (string | undefined)[],
  body: Node,
): ChoicePath[] {
  const inside = (n: Node, arm: Node | null) =>
    !!arm && n.startIndex >= arm.startIndex && n.endIndex <= arm.endIndex;
  const test = (from: Node, other: Node): Node | undefined => {
    for (let at = from.parent; at && at.id !== body.id; at = at.parent) {
      if (at.type !== 'if_statement') continue;
      const arms = [at.childForFieldName('consequence'), at.childForFieldName('alternative')];
      const arm = arms.find((a) => inside(from, a));
      if (arm && !inside(other, arm)) return at.childForFieldName('condition') ?? undefined;
    }
    return undefined;
  };
  const condition = test(session, write) ?? test(write, session);
  if (!condition) return [];
  const found: ChoicePath[] = [];
  const seen = new Set<string>();
  const visit = (n: Node) => {
    if (n.type === 'identifier') {
      const param = params.indexOf(n.text);
      if (param < 0) return;
      let top = n;
      while (
        top.parent?.type === 'field_expression' &&
        top.parent.childForFieldName('argument')?.id === top.id
      )
        top = top.parent;
      const path = top.id === n.id ? '' : top.text.slice(n.text.length).replace(/\s+/g, '');
      const key = `${param}${path}`;
      if (!seen.has(key)) found.push({ param, path });
      seen.add(key);
      return;
    }
    for (const child of n.namedChildren) if (child) visit(child);
  };
  visit(condition);
  return found;
}

/**
 * What a call of a helper whose test reads `paths` hands that test, canonical: `c->secure` for the
 * argument `c` and the path `->secure`, `c.secure` for `&c`; for any other argument, or a whole
 * parameter, the names the argument reads (a change of any of them may change the choice).
 */
export function chosenBy(paths: readonly ChoicePath[], args: readonly Node[]): string[] {
  const out = new Set<string>();
  for (const { param, path } of paths) {
    const arg = args[param];
    if (!arg) continue;
    const t = withoutCasts(arg).text.replace(/\s+/g, '');
    if (path && /^[A-Za-z_]\w*$/.test(t)) out.add(`${t}${path}`);
    else if (path.startsWith('->') && /^&[A-Za-z_]\w*$/.test(t)) out.add(`${t.slice(1)}.${path.slice(2)}`);
    else for (const m of t.matchAll(/[A-Za-z_]\w*/g)) out.add(m[0]);
  }
  return [...out];
}
