// Writers handed to a helper as a function pointer. A helper that writes with the function its caller
// gives it (`put_str(out, fd, s)` calling `out(fd, s, strlen(s))`: see CWrapper.mode) writes when that
// function writes. The C library's write functions say so by name (`write`, `send`, OpenBSD's
// `vwrite`); a project's own helper says so by its body, read as a write helper like any other
// (`put_str(sock_out, c, s)` with `sock_out(c, buf, n)` writing to `c->fd`). A call handed any other
// function (a logger, a formatter into memory, `read`) is no write, whatever the helper's shape.
import type { CWrapper } from '../wrapper';
import { writerMode } from './callSiteWriters';

/**
 * What a call of `helper` (a helper taking the function it writes with, `helper.mode`) given `args`
 * (their texts, in order) writes through: `helper` itself when the argument names a library write
 * function, the helper composed with the project's helper the argument names (see
 * {@link composedWriter}), or undefined when the call writes nothing the analyzer can tell.
 * `wrappers`: the write helpers in view, by name. Does not modify `helper`.
 */
export function passedWriter(
  helper: CWrapper,
  args: readonly { readonly text: string }[],
  wrappers: ReadonlyMap<string, CWrapper>,
): CWrapper | undefined {
  if (helper.mode === undefined) return helper;
  const given = args[helper.mode]?.text.trim() ?? '';
  if (writerMode(given)) return helper;
  // Only a name: `&out` and `(fn_t)out` are the same function, but a cast may hide one of another type.
  const name = given.replace(/^&\s*/, '');
  if (!/^[A-Za-z_]\w*$/.test(name)) return undefined;
  const passed = wrappers.get(name);
  return passed && composedWriter(helper, passed);
}

/**
 * `helper` writing through `passed`: the helper calls its function as `f(fd, buf, len)` (the slots a
 * mode reading fixes, see helperBodies.ts), so `passed` must take exactly those three, as a plain write
 * of its buffer (no format, no constant, no pace, no mode of its own, one write a call). Where it
 * writes is `passed`'s descriptor spelled from the argument the helper hands it: `c->fd` for a
 * `passed` writing to its first parameter's `fd` member, or `passed`'s own fixed descriptor. Calls
 * of it have no fix: neither helper has a gathered twin that takes the other.
 */
function composedWriter(helper: CWrapper, passed: CWrapper): CWrapper | undefined {
  if (passed.arity !== 3 || passed.buf !== 1 || passed.len !== 2) return undefined;
  if (passed.formats || passed.constant || (passed.syscalls ?? 1) !== 1) return undefined;
  if (passed.mode !== undefined || passed.pace !== undefined || passed.select || passed.flags !== undefined)
    return undefined;
  const fd = composedTarget(helper.fd, passed.fd);
  if (!fd) return undefined;
  const { mode: _mode, ...rest } = helper;
  const messages = helper.messages || passed.messages;
  const assumes = helper.assumes ?? passed.assumes;
  return {
    ...rest,
    fd,
    // What keeps the passed writer from a fix is said too: an assumption about it among others.
    noFix: `${helper.name}() writes with the function it is given (${passed.name}()), and has no gathered twin to call instead${passed.noFix ? `; ${passed.noFix}` : ''}`,
    ...(messages && { messages: true }),
    ...(assumes !== undefined && { assumes }),
  };
}

/**
 * Where `passed` writes when the helper hands it, as its descriptor, what `helper` reads at its own
 * target: one step of indirection at most (a member of a member is no target the analyzer spells).
 */
function composedTarget(helper: CWrapper['fd'], passed: CWrapper['fd']): CWrapper['fd'] | undefined {
  // Another file's static descriptor is spelled by that file only (see fileStatics.ts).
  if ('text' in passed) return passed.fileStatic ? undefined : passed;
  if (passed.param !== 0) return undefined;
  const { param: _param, ...reached } = passed;
  if (Object.keys(reached).length === 0) return helper;
  if ('text' in helper) return undefined;
  const { param, ...own } = helper;
  return Object.keys(own).length === 0 ? { param, ...reached } : undefined;
}
