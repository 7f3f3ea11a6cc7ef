// A member that holds a datagram socket in one mode of its object and a byte stream in the others:
// `switch (c->mode) { case MODE_TCP: c->sock = socket(AF_INET, SOCK_STREAM, 0); ... case MODE_UDP:
// c->sock = socket(AF_INET, SOCK_DGRAM, 0); ... }`. The file shows `c->sock` keeps message boundaries,
// but only where the mode is MODE_UDP: a write under `if (c->mode == MODE_TCP || c->mode == MODE_SERIAL)`
// cannot reach that socket. Each assignment that makes the member a message descriptor is read for the
// mode it is made in (the case of a `switch` on the subject, with the empty cases that fall into it, or
// an `if` testing the subject for equality); the write for the modes it runs in (the same two forms).
// When every such assignment's modes are outside the write's, the descriptor is not one the file shows
// to keep message boundaries there: it is of unknown kind, as any member set elsewhere is.
//
// The subject is compared by its text (`c->mode` in both functions), the modes by their constants'
// text. Anything else that may make the member a message descriptor (a socketpair, a device request,
// a function returning such a socket, an assignment in no mode) keeps the file's answer.
import type { Node } from 'web-tree-sitter';
import { isMessageOpening } from './messageDescriptors';
import { addrinfoStreams } from './socketTypes';
import { calleeName, withoutCasts } from './syntax';

/** A mode constant: a name in capitals or a number. */
const MODE = /^(?:[A-Z][A-Z0-9_]*|-?\d+)$/;

const spelled = (n: Node) => withoutCasts(n).text.replace(/\s+/g, '');

/** The last member name of a descriptor text (`sock` of `c->sock`). */
function memberName(target: string): string | undefined {
  return /(?:->|\.)(\w+)$/.exec(target)?.[1];
}

/** `S == K || S == L ...`: the subject and the constants, or undefined. */
function equalities(test: Node): { subject: string; modes: string[] } | undefined {
  const t = withoutCasts(test);
  if (t.type !== 'binary_expression') return undefined;
  const op = t.childForFieldName('operator')?.text;
  const left = t.childForFieldName('left');
  const right = t.childForFieldName('right');
  if (!left || !right) return undefined;
  if (op === '||') {
    const a = equalities(left);
    const b = equalities(right);
    return a && b && a.subject === b.subject
      ? { subject: a.subject, modes: [...a.modes, ...b.modes] }
      : undefined;
  }
  if (op !== '==') return undefined;
  const [l, r] = [spelled(left), spelled(right)];
  if (MODE.test(r) && !MODE.test(l)) return { subject: l, modes: [r] };
  if (MODE.test(l) && !MODE.test(r)) return { subject: r, modes: [l] };
  return undefined;
}

/**
 * The modes `node` runs in, tested on `subject` (or, without one, on the innermost subject found): the
 * labels of the `switch` case it lies in, or the constants of the `if` whose consequence holds it.
 */
function modesOf(node: Node, subject?: string): { subject: string; modes: string[] } | undefined {
  for (let at = node.parent, child: Node = node; at; child = at, at = at.parent) {
    if (at.type === 'function_definition') return undefined;
    if (at.type === 'if_statement' && at.childForFieldName('consequence')?.id === child.id) {
      const cond = at.childForFieldName('condition');
      const found = cond ? equalities(cond) : undefined;
      if (found && (subject === undefined || found.subject === subject)) return found;
    }
    if (at.type === 'case_statement') {
      const switched = at.parent?.parent;
      const cond = switched?.type === 'switch_statement' ? switched.childForFieldName('condition') : null;
      const on = cond ? spelled(cond) : undefined;
      const labels = caseLabels(at);
      if (on && labels && (subject === undefined || on === subject)) return { subject: on, modes: labels };
    }
  }
  return undefined;
}

/**
 * The label of `kase` with those of the empty cases just before it (they fall into it), or undefined
 * for `default`.
 */
function caseLabels(kase: Node): string[] | undefined {
  const labels: string[] = [];
  for (let at: Node | null = kase; at?.type === 'case_statement'; at = at.previousNamedSibling) {
    const value = at.childForFieldName('value');
    if (!value) return undefined;
    const label = spelled(value);
    if (!MODE.test(label)) return undefined;
    labels.push(label);
    // The case before falls into this one only when it has no statement of its own.
    const prev = at.previousNamedSibling;
    if (
      prev?.type !== 'case_statement' ||
      prev.namedChildren.some(
        (k) => k && k.id !== prev.childForFieldName('value')?.id && k.type !== 'comment',
      )
    )
      break;
  }
  return labels;
}

/** The assignments in `root` of a call to a member named `member`, with the call. */
function memberAssignments(root: Node, member: string): { assignment: Node; call: Node }[] {
  const found: { assignment: Node; call: Node }[] = [];
  for (const a of root.descendantsOfType('assignment_expression')) {
    if (!a || a.childForFieldName('operator')?.text !== '=') continue;
    const left = a.childForFieldName('left');
    const right = a.childForFieldName('right');
    if (!left || !right || memberName(spelled(left)) !== member) continue;
    const call = withoutCasts(right);
    if (call.type === 'call_expression') found.push({ assignment: a, call });
  }
  return found;
}

/**
 * True when the write `call` to the member descriptor `target` runs only in modes of its object in
 * which the file never puts a message descriptor in that member (see the file comment). `text` is the
 * whole file's; `returning` are its functions returning message descriptors.
 */
export function outsideMessageModes(
  call: Node,
  target: string,
  text: string,
  returning: ReadonlySet<string> = new Set(),
): boolean {
  const member = memberName(target);
  if (!member || text.includes('socketpair') || text.includes('ioctl')) return false;
  const own = modesOf(call);
  if (!own) return false;
  const hints = addrinfoStreams(text);
  let messages = 0;
  for (const { assignment, call: made } of memberAssignments(call.tree.rootNode, member)) {
    const callee = calleeName(made) ?? '';
    const args = made.childForFieldName('arguments')?.text.replace(/^\(|\)$/g, '') ?? '';
    if (returning.has(callee)) return false;
    if (!isMessageOpening(callee, args, hints)) continue;
    messages++;
    const modes = modesOf(assignment, own.subject);
    if (!modes || modes.modes.some((m) => own.modes.includes(m))) return false;
  }
  return messages > 0;
}
