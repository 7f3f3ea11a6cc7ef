// The function facts' reading of heads with attributes after the type, and of a body's ioctl() requests:
// text only, as every file of a tree is read for the fact base.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cFunctionFacts } from 'writev-lint/out/analyzer/c/functionFacts';
import { makesTerminalRequest } from 'writev-lint/out/analyzer/c/terminalRequests';

const names = (text: string) => cFunctionFacts(text).map((f) => f.name);

describe("a definition's head with attributes after its type", () => {
  it('reads the name after an upper-case attribute macro or __attribute__', () => {
    const text = [
      'static int ATTR_NONNULL(1) first(const char *s) { return strlen(s); }',
      'int __attribute__((cold)) ATTR_UNUSED second(void) { return 0; }',
      'void __attribute__((format(printf, 1, 2))) third(const char *f, ...) { }',
    ].join('\n');
    assert.deepEqual(names(text), ['first', 'second', 'third']);
    assert.equal(cFunctionFacts(text)[0]!.exported, false);
  });

  it('reads no definition where nothing but a macro call stands before the name', () => {
    assert.deepEqual(names('DECLARE_THING(x) fourth(int y) { return y; }'), []);
    assert.deepEqual(names('int lower_case(x) fifth(int y) { return y; }'), []);
  });
});

describe('ioctl() requests that change a terminal', () => {
  it('reads the request whatever its casts and parentheses', () => {
    assert.ok(makesTerminalRequest(' ioctl(fd, TIOCSETN, &sg); '));
    assert.ok(makesTerminalRequest(' (void)ioctl(t->fd, (unsigned long)(TCSETSW), &tio); '));
    assert.ok(makesTerminalRequest(' ioctl (pty, TCSBRK, 1); '));
  });

  it('leaves the requests that only read or set what the bytes do not depend on', () => {
    assert.ok(!makesTerminalRequest(' ioctl(fd, FIONREAD, &n); ioctl(fd, TIOCGWINSZ, &ws); '));
    assert.ok(!makesTerminalRequest(' ioctl(fd, FIONBIO, &on); '));
    assert.ok(!makesTerminalRequest(' my_ioctl(fd, TCSETS, &t); '));
  });
});
