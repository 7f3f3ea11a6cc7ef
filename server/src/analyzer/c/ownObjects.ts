// A connection or client object often holds both the descriptor a helper writes and what it sends: a
// prompt or a banner kept per connection (`prompt(c) { struct tc *t = c->priv; return put(c, t->prompt,
// strlen(t->prompt)); }`), or just the socket that every send of the client goes to (`send_all(cl, buf,
// n)` writing `cl->sock`). Each call is still one write of its object's bytes to its object's
// descriptor, as long as the helper leaves the object as it found it: a helper that moves its
// descriptor (`cl->sock = next`) or refills or drains what it sent (`c->len = 0`) changes what the next
// call writes, or where. What stays allowed is the write's own failure path (`c->closed = 1`), which
// ends the run anyway.
import type { Node } from 'web-tree-sitter';
import { C_FIRST_ARGUMENT_FILLERS } from '../catalogue';
import { callArgs, calleeName, withoutCasts } from './syntax';

/** What a helper's body does to its locals (see helperBodies.ts `BodyFacts`). */
export interface ObjectFacts {
  /** Locals declared with an initial value: the value. */
  readonly initial: ReadonlyMap<string, Node>;
  /** Every value each name is given. */
  readonly values: ReadonlyMap<string, readonly Node[]>;
  /** True when the body gives `name` any value after its declaration. */
  readonly changed: (name: string) => boolean;
}

/** `a->b.c` down to its root: the root node and the member path (`->b.c`), no call or index on the way. */
function memberPath(node: Node): { root: Node; path: string } | undefined {
  let at = withoutCasts(node);
  const steps: string[] = [];
  while (at.type === 'field_expression') {
    const arg = at.childForFieldName('argument');
    const field = at.childForFieldName('field');
    const op = at.childForFieldName('operator')?.text;
    if (!arg || !field || !op) return undefined;
    steps.unshift(`${op}${field.text}`);
    at = withoutCasts(arg);
  }
  return at.type === 'identifier' ? { root: at, path: steps.join('') } : undefined;
}

/**
 * The parameter a local stands for a member chain of, with that chain (`struct tc *t = c->priv;` is
 * `c`'s `->priv`): set once, by its declaration, and never again. Undefined for anything else.
 */
function aliasOf(
  local: string,
  params: readonly (string | undefined)[],
  facts: ObjectFacts,
): { param: number; path: string } | undefined {
  const init = facts.initial.get(local);
  if (!init || facts.changed(local) || (facts.values.get(local) ?? []).length !== 1) return undefined;
  const chain = memberPath(init);
  if (!chain || chain.path === '' || facts.changed(chain.root.text)) return undefined;
  const param = params.indexOf(chain.root.text);
  return param >= 0 ? { param, path: chain.path } : undefined;
}

/**
 * The parameter whose object `node` reaches through its members (`m->data`, `c->priv->prompt`, or
 * `t->prompt` with `t` a local set once to `c->priv`), or -1. The parameter itself is never assigned.
 */
export function memberOwner(node: Node, params: readonly (string | undefined)[], facts: ObjectFacts): number {
  const chain = memberPath(node);
  if (!chain || chain.path === '') return -1;
  const name = chain.root.text;
  const param = params.indexOf(name);
  if (param >= 0) return facts.changed(name) ? -1 : param;
  return aliasOf(name, params, facts)?.param ?? -1;
}

/**
 * `node` spelled from the parameter it reaches through members (`t->fd` with `t = cl->conn` is
 * `cl->conn->fd`), or undefined when it reaches none.
 */
function spelledFromParam(
  node: Node,
  params: readonly (string | undefined)[],
  facts: ObjectFacts,
): string | undefined {
  const chain = memberPath(node);
  if (!chain) return undefined;
  const name = chain.root.text;
  if (params.includes(name)) return `${name}${chain.path}`;
  const alias = aliasOf(name, params, facts);
  return alias ? `${params[alias.param]}${alias.path}${chain.path}` : undefined;
}

/** What the body changes: the target of each assignment, update, and memory-filling call. */
function changedPlaces(body: Node): Node[] {
  const places: Node[] = [];
  for (const n of body.descendantsOfType(['assignment_expression', 'update_expression', 'call_expression'])) {
    if (!n) continue;
    const place =
      n.type === 'assignment_expression'
        ? n.childForFieldName('left')
        : n.type === 'update_expression'
          ? n.childForFieldName('argument')
          : C_FIRST_ARGUMENT_FILLERS.test(calleeName(n) ?? '')
            ? (callArgs(n)[0] ?? null)
            : null;
    if (!place) continue;
    const bare = withoutCasts(place);
    // `memcpy(&c->buf, ...)`, `*c->len = 0`: the member behind the address or the pointer.
    const inner =
      bare.type === 'pointer_expression'
        ? bare.childForFieldName('argument')
        : bare.type === 'subscript_expression'
          ? bare.childForFieldName('argument')
          : bare;
    if (inner) places.push(inner);
  }
  return places;
}

/**
 * True when `body` changes, where `failing` does not say the write failed, the member `path` of
 * parameter `param` or a member on the way to it (`cl->conn = next` for `->conn->fd`), through the
 * parameter or a local that stands for a member of it: the next call would write to another descriptor.
 */
export function movesDescriptor(
  body: Node,
  param: string,
  path: string,
  params: readonly (string | undefined)[],
  facts: ObjectFacts,
  failing: (n: Node) => boolean,
): boolean {
  const whole = `${param}${path}`;
  return changedPlaces(body).some((place) => {
    const spelled = spelledFromParam(place, params, facts);
    if (!spelled || spelled === param) return false;
    const on = spelled === whole || whole.startsWith(`${spelled}->`) || whole.startsWith(`${spelled}.`);
    return on && !failing(place);
  });
}

/**
 * True when `body` changes anything reached through the members of parameter `param` (directly or
 * through a local standing for one of its members) where `failing` does not say the write failed: a
 * helper sending what its object holds must not refill or drain it.
 */
export function changesObject(
  body: Node,
  param: string,
  params: readonly (string | undefined)[],
  facts: ObjectFacts,
  failing: (n: Node) => boolean,
): boolean {
  return changedPlaces(body).some((place) => {
    const spelled = spelledFromParam(place, params, facts);
    const through = spelled?.startsWith(`${param}->`) || spelled?.startsWith(`${param}.`);
    return !!through && !failing(place);
  });
}
