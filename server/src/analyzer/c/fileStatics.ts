// A write helper whose descriptor is a `static` variable of its own file (`static int fd;` in log.c,
// written by `log_put(s)`): another `.c` file may keep a `static int fd` of its own, for another
// descriptor (`cfg_put(s)` in cfg.c). A caller in a third file sees each helper write to `fd`; read by
// name alone, `log_put("a"); cfg_put("b");` would be two writes to one descriptor. The helper's file
// marks such a descriptor when it hands the helper on (see messageHelpers.ts), and a caller in another
// file reads it as the variable of that file (see writes.ts): two helpers of two files' statics are two
// descriptors, and the caller's own variable of that name is a third. A header's statics are left as
// they are: each includer has its copy, which its own code and the header's helpers share.
import { isHeader } from '../headerIncludes';
import type { CWrapper } from '../wrapper';

/**
 * `wrappers` (a `.c` file's helpers, as handed on to other files) with each fixed descriptor whose
 * variable `text` declares `static` at file scope marked `fileStatic` (see WrapperTarget). Returns
 * `wrappers` itself when none is marked; does not modify it.
 */
export function markedFileStatics(wrappers: CWrapper[], text: string): CWrapper[] {
  if (!/^static\b/m.test(text)) return wrappers;
  let marked = false;
  const result = wrappers.map((w) => {
    if (!('text' in w.fd)) return w;
    const root = /^\(?\s*([A-Za-z_]\w*)/.exec(w.fd.text)?.[1];
    if (!root || !fileStatic(root, text)) return w;
    marked = true;
    return { ...w, fd: { ...w.fd, fileStatic: true as const } };
  });
  return marked ? result : wrappers;
}

/**
 * True when `text` declares `name` at file scope as `static` (a declaration starting a line: a
 * function's own static locals are indented), as the one declared variable or one of a list.
 */
function fileStatic(name: string, text: string): boolean {
  return new RegExp(`^static\\b[^;(){}=]*\\b${name}\\b\\s*(?:\\[[^\\]]*\\]\\s*)?[=;,]`, 'm').test(text);
}

/**
 * The descriptor a call of `wrapper` writes to, as the calling file names it: `target` (canonical)
 * where the wrapper is its own or writes to anything but another `.c` file's static, else that
 * static qualified by its file (`fd@src/log.c`), which no name of the caller spells.
 */
export function staticTarget(wrapper: CWrapper, target: string): string {
  if (!wrapper.file || isHeader(wrapper.file) || !('text' in wrapper.fd) || !wrapper.fd.fileStatic)
    return target;
  return `${target}@${wrapper.file}`;
}
