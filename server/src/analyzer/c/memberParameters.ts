// A call between two writes is often handed the object that holds the written descriptor: a running
// checksum or a sequence number kept per connection (`mac_update(c, body, n)` between writes to
// `c->fd`), or a cipher state kept in one of its members (`encrypt(&c->ctx, body, n)`). Handed the
// whole object, such a call may change any part of it, the descriptor included, unless its body shows
// otherwise: a body that reaches its parameter only through members (`p->mac[i] ^= x; p->seq++;`)
// touches those members and nothing else of the object, whatever they are called. The body is read from
// the text alone, as the fact base reads bodies: a parameter that appears once without a member after it
// (handed on whole, copied into another pointer, stepped, indexed, taken the address of, named in a
// macro) may reach anything, and the call is read as before. The fact is the callee's own, whichever
// file calls it: the fact base carries it to callers in other files (WrapperIndex.cMemberParamsFor).
import { parameterDeclarations } from './parameterName';

/** What follows a parameter's name when it reaches a member (`->member`; group 1: the member). */
const MEMBER_AFTER = /\s*->\s*([A-Za-z_]\w*)/y;

/** Whether the UTF-16 code `c` continues a word as `\w` reads one (`[A-Za-z0-9_]`); NaN past the end does not. */
function isWordCode(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/** The name a parameter declares: `struct conn *c` is `c`; none for `void`, `...` or a function pointer. */
function declaredName(param: string): string | undefined {
  if (param === '' || param === 'void' || param === '...' || /[([]/.test(param)) return undefined;
  // One pointer to a struct or a typedef'd object: the shape whose members a body reaches.
  if ((param.match(/\*/g) ?? []).length !== 1) return undefined;
  return /([A-Za-z_]\w*)\s*$/.exec(param)?.[1];
}

/**
 * For a definition's parameter list (`list`, between its parentheses) and body (`body`, between its
 * braces, its comments and literals already blanked, as cFunctionFacts blanks a file's text): each
 * pointer parameter the body reaches only through members (every use of its name is `name->member`), with the members it names, sorted. A parameter used any other way is left out:
 * nothing is known of what a call handed it may change. Touching stands for changing: a member the
 * body only reads is listed too, which can only make a caller's run end sooner.
 */
export function memberParameters(list: string, body: string): [number, string[]][] {
  const found: [number, string[]][] = [];
  parameterDeclarations(list).forEach((param, index) => {
    const name = declaredName(param);
    if (!name) return;
    const members = new Set<string>();
    let bare = false;
    // Each whole-word use of the name, found by the name itself: a pattern led by `(^|\W)` was tried
    // at every character of every body, a visible part of reading a tree's function facts.
    for (let at = body.indexOf(name); at !== -1; at = body.indexOf(name, at)) {
      const end = at + name.length;
      if ((at > 0 && isWordCode(body.charCodeAt(at - 1))) || isWordCode(body.charCodeAt(end))) {
        at = end;
        continue;
      }
      MEMBER_AFTER.lastIndex = end;
      const member = MEMBER_AFTER.exec(body);
      at = member ? MEMBER_AFTER.lastIndex : end;
      // `x.name` or `y->name` is another object's member of that spelling, not the parameter.
      // What the name follows, white space skipped: a member of that name (`x.fd`, `x->fd`) is no use.
      // Looked back from the name rather than by copying the text before it, once a use.
      let k = end - name.length;
      while (k > 0 && /\s/.test(body[k - 1]!)) k--;
      if (body[k - 1] === '.' || (body[k - 1] === '>' && body[k - 2] === '-')) continue;
      if (!member) {
        bare = true;
        break;
      }
      members.add(member[1]!);
    }
    if (!bare && members.size > 0) found.push([index, [...members].sort()]);
  });
  return found;
}

/** What a call may change of what it is handed, by callee name: parameter index to members. */
export type MemberParameterMap = ReadonlyMap<string, ReadonlyMap<number, readonly string[]>>;

/**
 * The members each function of `facts` may change through each parameter it reaches only through
 * members, by name and index (see {@link memberParameters}); names with none are left out. A name
 * defined twice (under `#if` alternatives, or exported by two files of a tree) keeps a parameter only
 * where both definitions read it so, with the members of both. Does not modify `facts`.
 */
export function memberParameterMap(
  facts: Iterable<{
    readonly name: string;
    readonly memberParams?: readonly (readonly [number, readonly string[]])[];
  }>,
): Map<string, ReadonlyMap<number, readonly string[]>> {
  const byName = new Map<string, Map<number, readonly string[]>>();
  for (const f of facts) {
    const mine = new Map<number, readonly string[]>(f.memberParams ?? []);
    const before = byName.get(f.name);
    if (!before) {
      byName.set(f.name, mine);
      continue;
    }
    const both = new Map<number, readonly string[]>();
    for (const [k, members] of before) {
      const other = mine.get(k);
      if (other) both.set(k, [...new Set([...members, ...other])].sort());
    }
    byName.set(f.name, both);
  }
  for (const [name, found] of byName) if (found.size === 0) byName.delete(name);
  return byName;
}

/**
 * The members each of a file's functions (`facts`) may change through each parameter it reaches only
 * through members (see {@link memberParameterMap}); a name the file does not define is answered from
 * `elsewhere`, what the other files of its tree define (see WrapperIndex.cMemberParamsFor).
 */
export function memberParameterLookup(
  facts: readonly {
    readonly name: string;
    readonly memberParams?: readonly (readonly [number, readonly string[]])[];
  }[],
  elsewhere?: MemberParameterMap,
): (callee: string) => ReadonlyMap<number, readonly string[]> | undefined {
  const own = memberParameterMap(facts);
  if (!elsewhere || elsewhere.size === 0) return (callee) => own.get(callee);
  const defined = new Set(facts.map((f) => f.name));
  return (callee) => (defined.has(callee) ? own.get(callee) : elsewhere.get(callee));
}
