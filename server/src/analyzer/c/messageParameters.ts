// Descriptor parameters some caller hands a message socket. A file's `static` function that writes to
// its parameter (`reply(int fd, ...)` writing twice) has every caller in that file: where one of them
// hands it a descriptor that keeps message boundaries (a datagram or SOCK_SEQPACKET socket it opened,
// a connection accepted on such a listener, an end of a message socketpair), each write of the
// function may be one message there, and its writes are not one byte stream to gather. Its stream
// twin (every caller handing a stream) is streamParameters' (origins.ts). A function of the file
// visible to others is told by the fact base which of its parameters a caller anywhere in the tree
// hands a message socket (see handedMessages.ts), and hands them on to its static callees alike.
import type { Node } from 'web-tree-sitter';
import { NO_HANDED, type HandedMessages } from './handedMessages';
import { isMessageDescriptor, messagesIn, type MessageDescriptors } from './messageDescriptors';
import { isStaticDefinition } from './origins';
import { callArgs, calleeName, canonicalTarget, declaredName, functionName, parameterNames } from './syntax';

/**
 * The parameters of the file's static functions among `bodies` (those whose text `plainWrite` finds a
 * plain write in) that some call in the file hands a descriptor `found` (the file's message
 * descriptors) shows its caller to hold as a message socket, by function name. A caller's own
 * message parameters count too, until nothing more is learnt. Functions whose name the text uses
 * otherwise than to call it (its address stored) are left out: they are called from anywhere.
 * `handed`: the parameters, by index, that calls anywhere in the tree hand a message socket (see
 * handedMessages.ts), taken for the file's functions that are not `static`.
 */
export function messageParameters(
  bodies: readonly { readonly fn: Node; readonly text: string }[],
  found: MessageDescriptors,
  text: string,
  plainWrite: RegExp,
  handed: HandedMessages = NO_HANDED,
): Map<string, Set<string>> {
  const result =
    handed.size > 0 ? exportedHanded(bodies, handed, plainWrite) : new Map<string, Set<string>>();
  if (found.targets.size === 0 && found.arrays.size === 0 && found.members.size === 0 && result.size === 0)
    return result;
  const candidates = bodies.filter((b) => plainWrite.test(b.text) && isStaticDefinition(b.fn));
  if (candidates.length === 0) return result;
  // What each caller holds as a message socket, read once.
  const held = new Map<Node['id'], MessageDescriptors>();
  const heldBy = (caller: Node) => {
    let known = held.get(caller.id);
    if (!known) {
      const params = parameterNames(caller).filter((n): n is string => !!n);
      known = messagesIn(found, caller.text, declaredIn(caller), params);
      held.set(caller.id, known);
    }
    return known;
  };
  for (let round = 0, learnt = true; learnt && round < 4; round++) {
    learnt = false;
    for (const { fn } of candidates) {
      const name = functionName(fn);
      if (!name) continue;
      const mentions = [...text.matchAll(new RegExp(`\\b${name}\\b(\\s*\\()?`, 'g'))];
      if (mentions.some((m) => m[1] === undefined)) continue;
      const params = parameterNames(fn);
      const call = new RegExp(`\\b${name}\\s*\\(`);
      for (const caller of bodies) {
        if (caller.fn === fn || !call.test(caller.text)) continue;
        const own = result.get(functionName(caller.fn) ?? '');
        for (const c of caller.fn.descendantsOfType('call_expression')) {
          if (!c || calleeName(c) !== name) continue;
          callArgs(c).forEach((arg, i) => {
            const p = params[i];
            if (!p || result.get(name)?.has(p)) return;
            const target = canonicalTarget(arg.text);
            // A static caller handing on its own parameter is asked in turn who hands it what.
            if (isStaticDefinition(caller.fn) && !candidates.some((b) => b.fn === caller.fn))
              if (parameterNames(caller.fn).includes(target)) {
                candidates.push(caller);
                learnt = true;
              }
            if (!isMessageDescriptor(target, heldBy(caller.fn)) && !own?.has(target)) return;
            const set = result.get(name) ?? new Set<string>();
            set.add(p);
            result.set(name, set);
            learnt = true;
          });
        }
      }
    }
  }
  return result;
}

/** The names a function declares: its parameters and the variables of its body. */
function declaredIn(fn: Node): Set<string> {
  const names = new Set<string>();
  for (const name of parameterNames(fn)) if (name) names.add(name);
  for (const decl of fn.descendantsOfType('declaration'))
    for (const d of decl?.childrenForFieldName('declarator') ?? []) {
      const name = declaredName(d);
      if (name) names.add(name);
    }
  return names;
}

/**
 * The parameters of `bodies`' functions that are not `static` (and make a plain write) which `handed`
 * says some call in the tree hands a message socket, by function name.
 */
function exportedHanded(
  bodies: readonly { readonly fn: Node; readonly text: string }[],
  handed: HandedMessages,
  plainWrite: RegExp,
): Map<string, Set<string>> {
  const result = new Map<string, Set<string>>();
  for (const { fn, text } of bodies) {
    const name = functionName(fn);
    const indexes = name !== undefined ? handed.get(name) : undefined;
    if (!name || !indexes || isStaticDefinition(fn) || !plainWrite.test(text)) continue;
    const params = parameterNames(fn);
    const set = new Set([...indexes].flatMap((i) => (params[i] ? [params[i]] : [])));
    if (set.size > 0) result.set(name, set);
  }
  return result;
}
