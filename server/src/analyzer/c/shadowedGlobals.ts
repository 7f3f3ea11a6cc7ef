// A write helper whose descriptor is a variable of file scope (`int out_fd;` written by `note(s)`)
// writes to that variable wherever it is called. A caller that declares a parameter or local of the
// same name (`void reply(int out_fd, ...)`, `int out_fd = accept(...)`) holds another descriptor under
// it: read by name, `note("x"); write(out_fd, ...)` would be two writes to one descriptor, and the
// caller's `int out_fd = sock` copy would make the helper's write one to `sock`. Such a call is read as
// a write to the outer variable, qualified by where it lives, which no name of the caller spells.
import type { Node } from 'web-tree-sitter';
import type { CWrapper } from '../wrapper';
import { declaredName, parameterNames } from './syntax';

/**
 * Whether a name is declared, where `at` stands in function `fn`, by a parameter or by a local whose
 * block holds `at` and that is declared before it (an `extern` declaration names the outer variable
 * itself). Declarations are read when first asked, once.
 */
export type Shadows = (name: string, at: Node) => boolean;

/** The {@link Shadows} of function definition `fn`. */
export function shadowsOf(fn: Node): Shadows {
  let params: Set<string> | undefined;
  let locals: Map<string, { start: number; end: number; from: number }[]> | undefined;
  const read = () => {
    params = new Set(parameterNames(fn).filter((n): n is string => !!n));
    locals = new Map();
    for (const decl of fn.descendantsOfType('declaration')) {
      if (!decl || /^\s*extern\b/.test(decl.text)) continue;
      const block = decl.parent;
      if (!block) continue;
      for (const d of decl.childrenForFieldName('declarator')) {
        const name = declaredName(d);
        if (!name) continue;
        const scopes = locals.get(name) ?? [];
        scopes.push({ start: block.startIndex, end: block.endIndex, from: decl.startIndex });
        locals.set(name, scopes);
      }
    }
  };
  return (name, at) => {
    if (!params || !locals) read();
    if (params?.has(name)) return true;
    return (locals?.get(name) ?? []).some(
      (s) => s.from < at.startIndex && s.start <= at.startIndex && at.endIndex <= s.end,
    );
  };
}

/**
 * The descriptor a call `call` of `wrapper` writes to when the wrapper writes to a variable of file
 * scope (a fixed descriptor, not another file's static: see fileStatics.ts) that the calling function
 * declares again where the call stands (`shadows`): that variable qualified by where it lives
 * (`out_fd@src/log.c`, or `out_fd@` for the file's own), which no name of the caller spells. Undefined
 * otherwise: the call writes to what its name means there.
 */
export function shadowedTarget(
  wrapper: CWrapper,
  call: Node,
  canonical: (text: string) => string,
  shadows?: Shadows,
): string | undefined {
  if (!shadows || !('text' in wrapper.fd) || wrapper.fd.fileStatic) return undefined;
  const root = /^\(?\s*([A-Za-z_]\w*)/.exec(wrapper.fd.text)?.[1];
  if (!root || !shadows(root, call)) return undefined;
  return `${canonical(wrapper.fd.text)}@${wrapper.file ?? ''}`;
}
