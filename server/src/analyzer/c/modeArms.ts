// A helper that writes its buffer to its descriptor only in one mode of the program, and in the other
// keeps the bytes in memory or sends them another way: `put(o, p, n) { if (!o->in_memory) return
// write(o->fd, p, n); memcpy(o->held + o->used, p, n); o->used += n; return n; }` (an archiver writing
// to a file, or compressing to memory for a pipe), or `puts(s) { if (!tls_on()) return sock_puts(sock,
// s); return tls_puts(ssl, s); }` (a client that speaks plain or TLS on one connection). The mode is a
// test that opens the body and reads none of the call's arguments (a flag of the descriptor's object, a
// global, or a function of no arguments that does no output, which reads one): it is not decided call
// by call, as a size test is (see `copiesBuffer` in helperBodies.ts: a helper that writes large buffers
// through and copies small ones keeps some calls for later, so its calls are no writes made in their
// order). In the mode that writes, every call is one write of the caller's buffer; the helper is read
// as that arm, as a helper whose arm a constant argument rules out is read without it (see
// selectedBranches.ts). Its calls are reported without a fix: in the other mode they write nothing to
// the descriptor.
import type { Node } from 'web-tree-sitter';
import { callArgs, calleeName, calls, namedKids, withoutCasts } from './syntax';

/** The statement an arm is, through a block of one statement (`{ return write(...); }`). */
export function soleStatement(arm: Node): Node | undefined {
  if (arm.type !== 'compound_statement') return arm;
  const kids = namedKids(arm).filter((k) => k.type !== 'comment');
  return kids.length === 1 ? kids[0] : undefined;
}

/**
 * True when `test` reads no parameter except as the object of a member (`o->in_memory`, not `o`,
 * `n` or `p`), and calls nothing but functions of no arguments that `quiet` says do no output (an
 * accessor of the program's mode, `tls_on()`): a mode of the program or of the object, not of the call.
 */
export function modeTest(
  test: Node,
  params: readonly (string | undefined)[],
  sources: readonly (string | undefined)[],
  quiet: (name: string) => boolean,
): boolean {
  const accessor = (call: Node) => {
    const name = calleeName(call);
    return callArgs(call).length === 0 && name !== undefined && quiet(name);
  };
  if (!calls(test).every(accessor)) return false;
  const names = new Set(params.filter((p): p is string => !!p));
  const read = test.type === 'identifier' ? [test] : test.descendantsOfType('identifier');
  return read.every((id) => {
    if (!id) return true;
    if (!names.has(id.text)) return !namesParameter(id.text, names, sources);
    const parent = id.parent;
    return parent?.type === 'field_expression' && !!parent.childForFieldName('argument')?.equals(id);
  });
}

/**
 * True when `name` is an object-like macro in `sources` whose body reads one of `params` other than as
 * the object of a member (`#define LARGE (n > 4096)`): its test is then decided call by call after all.
 */
function namesParameter(
  name: string,
  params: ReadonlySet<string>,
  sources: readonly (string | undefined)[],
): boolean {
  const escaped = name.replace(/[^\w]/g, '');
  const define = new RegExp(`^[ \\t]*#[ \\t]*define[ \\t]+${escaped}(?![\\w(])(.*)$`, 'gm');
  for (const m of sources.flatMap((text) => (text ? [...text.matchAll(define)] : []))) {
    // A member of a parameter's object (`o->flags & BUFFERED`) is a mode of the object, as in the test.
    for (const word of (m[1] ?? '').matchAll(/(?<![\w.>])([A-Za-z_]\w*)(?!\s*(?:->|\.)|\w)/g))
      if (params.has(word[1]!)) return true;
  }
  return false;
}

/**
 * The calls to leave out when `body` is read in the mode that writes (see the file comment): the body
 * opens (after declarations that call nothing) with an `if` on a mode whose arm is one `return` of a
 * call; every call outside that arm is left out. Undefined when the body has no such opening, or the
 * arm's call is all there is (nothing to leave out). `sources` holds the file's text and the headers it
 * includes (either may be undefined), where the macros a test names are defined: apart, since joining
 * them would copy the whole file for every body read. `quiet` tells the functions that do no output.
 * Does not modify `body`.
 */
export function modeArmSkips(
  body: Node,
  params: readonly (string | undefined)[],
  sources: readonly (string | undefined)[],
  quiet: (name: string) => boolean,
): ReadonlySet<number> | undefined {
  const statements = namedKids(body).filter((k) => k.type !== 'comment');
  const opening = statements.find((s) => s.type !== 'declaration');
  if (!opening || opening.type !== 'if_statement') return undefined;
  const before = statements.slice(0, statements.indexOf(opening));
  if (before.some((d) => calls(d).length > 0)) return undefined;
  const test = opening.childForFieldName('condition');
  const arm = opening.childForFieldName('consequence');
  if (!test || !arm || !modeTest(test, params, sources, quiet)) return undefined;
  const sole = soleStatement(arm);
  const value = sole?.type === 'return_statement' ? sole.namedChild(0) : null;
  if (!value || withoutCasts(value).type !== 'call_expression') return undefined;
  const kept = new Set(calls(arm).map((c) => c.id));
  const skipped = new Set(calls(body).flatMap((c) => (kept.has(c.id) ? [] : [c.id])));
  return skipped.size > 0 ? skipped : undefined;
}
