// What a file tells the fact base of its calls of other files' functions (handedMessages.ts,
// handedWriters.ts), read from its text alone: the message sockets it hands them, the write helpers it
// hands a function taking one, and what the tree binds from all files' answers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cFunctionFacts } from 'writev-lint/out/analyzer/c/functionFacts';
import { handedMessages } from 'writev-lint/out/analyzer/c/handedMessages';
import { handedWriters, treeBound, writerTakers } from 'writev-lint/out/analyzer/c/handedWriters';

const TAKER = `typedef int (*out_fn)(int, const void *, size_t);
int put_pair(out_fn out, int fd, const char *k, const char *v)
{
\tout(fd, k, strlen(k));
\treturn out(fd, v, strlen(v));
}
static int put_one(int (*out)(int, const void *, size_t), int fd, const char *k)
{
\treturn out(fd, k, strlen(k));
}
int put_note(int level, const char *s)
{
\treturn log_line(level, s, strlen(s));
}
`;

describe('the calls a file tells the fact base of', () => {
  it('hands a datagram socket it opened, not one of another function of the same name', () => {
    const text = `static int helper(int fd);
void notify(void)
{
\tint s = socket(AF_INET, SOCK_DGRAM, 0);
\tsend_reply(s, "up");
\thelper(s);
\tsendto(s, "x", 1, 0, 0, 0);
\tclose(s);
}
void serve(void)
{
\tint s = socket(AF_INET, SOCK_STREAM, 0);
\tsend_status(s, "ok");
}
`;
    // The library's calls are told too: the fact base keeps the names some file of the tree defines.
    const names = handedMessages(text, new Set(['helper'])).map(([name, index]) => `${name}/${index}`);
    assert.ok(names.includes('send_reply/0'));
    assert.ok(!names.includes('helper/0') && !names.includes('send_status/0'));
    assert.ok(!names.includes('sendto/0'), 'a write function of the library');
  });

  it('hands an end of a SOCK_SEQPACKET pair', () => {
    const text = `void pair(void)
{
\tint sv[2];
\tsocketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv);
\tsend_note(1, sv[0]);
}
`;
    assert.deepEqual(handedMessages(text, new Set()), [['send_note', 1]]);
  });

  it('finds the takers other files see, by the parameter they call with three arguments', () => {
    assert.deepEqual(writerTakers(TAKER, cFunctionFacts(TAKER)), [['put_pair', 0]]);
  });

  it('tells what each mention of a taker hands it, a prototype being none and a stored address nothing', () => {
    const takers = new Map([['put_pair', new Set([0])]]);
    const text = `int put_pair(out_fn out, int fd, const char *k, const char *v);
int a(int fd) { return put_pair(write_all, fd, "k", "v"); }
int b(int fd) { return put_pair(&write_all, fd, "k", "v"); }
int c(int fd, out_fn f) { return put_pair(f ? f : write_all, fd, "k", "v"); }
static int (*hook)(out_fn, int, const char *, const char *) = put_pair;
`;
    assert.deepEqual(handedWriters(text, takers), [
      ['put_pair', 0, 'write_all'],
      ['put_pair', 0, 'write_all'],
      ['put_pair', 0, ''],
      ['put_pair', 0, ''],
    ]);
  });

  it('binds a parameter only when every file calling the taker told one name', () => {
    const takers = new Map([['put_pair', new Set([0])]]);
    const definer = { functions: cFunctionFacts(TAKER) };
    const caller = (name: string, told: boolean) => ({
      functions: cFunctionFacts(`int ${name}(int fd) { return put_pair(write_all, fd, "k", "v"); }\n`),
      ...(told && { writersHanded: [['put_pair', 0, 'write_all'] as const] }),
    });
    assert.deepEqual(
      [...treeBound([definer, caller('a', true), caller('b', true)], takers)],
      [['put_pair', new Map([[0, 'write_all']])]],
    );
    // A caller read before the taker was known told nothing: nothing is bound.
    assert.equal(treeBound([definer, caller('a', true), caller('b', false)], takers).size, 0);
    // Two names: nothing is bound.
    const other = { ...caller('c', true), writersHanded: [['put_pair', 0, 'write_once'] as const] };
    assert.equal(treeBound([definer, caller('a', true), other], takers).size, 0);
  });
});
