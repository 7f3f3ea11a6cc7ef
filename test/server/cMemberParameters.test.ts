// A call between two writes handed the object that holds the descriptor changes only the members its
// body reaches, when the body reaches that parameter through members alone (memberParameters.ts): the
// fact read from a body, and the runs it lets through and those it still ends, keyed documents too.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULT_SETTINGS } from 'writev-lint';
import { cFunctionFacts } from 'writev-lint/out/analyzer/c/functionFacts';
import { memberParameterLookup, memberParameters } from 'writev-lint/out/analyzer/c/memberParameters';
import { analyzer, FIXTURES } from './helpers';

describe('parameters reached through members only', () => {
  it('lists the members a body names through a pointer parameter, sorted', () => {
    assert.deepEqual(
      memberParameters('struct conn *c, const unsigned char *p, size_t n', 'c->seq++; c->mac[0] ^= p[0];'),
      [[0, ['mac', 'seq']]],
    );
    // Spaces around the arrow; comments and strings come blanked, as the fact base blanks a file.
    assert.deepEqual(memberParameters('struct x *x', 'x -> state = 1;   f(   );'), [[0, ['state']]]);
  });

  it('reads a definition’s body with its comments and literals blanked, as the fact base reads a file', () => {
    const [fact] = cFunctionFacts(
      'void f(struct conn *p, int n)\n{\n\tp->seq = n; /* p */ g("p", \'p\');\n}\n',
    );
    assert.deepEqual(fact?.memberParams, [[0, ['seq']]]);
  });

  it('leaves out a parameter used any other way', () => {
    // Handed on whole, copied, stepped, dereferenced, taken the address of, or never used.
    for (const body of ['g(c);', 'q = c; q->fd = 0;', 'c++;', '(*c).fd = 1;', 'h(&c);'])
      assert.deepEqual(memberParameters('struct conn *c', `c->seq = 1; ${body}`), [], body);
    assert.deepEqual(memberParameters('struct conn *c', 'return 0;'), []);
  });

  it('reads another object of the same spelling as no use of the parameter', () => {
    assert.deepEqual(memberParameters('struct conn *c', 'c->n = o.c + p->c;'), [[0, ['n']]]);
  });

  it('takes no scalar, no pointer to pointer and no function pointer', () => {
    assert.deepEqual(memberParameters('int c, struct s **pp, void (*fn)(int)', 'pp->x = c; fn->y = 1;'), []);
  });

  it('keeps a parameter of a name defined twice only where both definitions read it so', () => {
    const lookup = memberParameterLookup([
      {
        name: 'f',
        memberParams: [
          [0, ['a']],
          [1, ['x']],
        ],
      },
      { name: 'f', memberParams: [[0, ['b']]] },
      { name: 'g' },
    ]);
    assert.deepEqual([...lookup('f')!], [[0, ['a', 'b']]]);
    assert.equal(lookup('g'), undefined);
    assert.equal(lookup('h'), undefined);
  });
});

const TEXT = `#include <stddef.h>
#include <sys/socket.h>
#include <unistd.h>
struct mp_conn { int sock; unsigned seq; unsigned char mac[8]; unsigned char key[4]; };
int mp_open(struct mp_conn *c) { c->sock = socket(AF_UNIX, SOCK_STREAM, 0); return c->sock; }
static void mp_sum(struct mp_conn *p, const unsigned char *d, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		p->mac[i % 8] ^= d[i];
	p->seq++;
}
static void mp_drop(struct mp_conn *p) { p->sock = -1; }
void mp_send(struct mp_conn *c, const unsigned char *d, size_t n)
{
	write(c->sock, "HDR", 3);
	mp_sum(c, d, n);
	write(c->sock, d, n);
}
void mp_drop_between(struct mp_conn *c, const unsigned char *d, size_t n)
{
	write(c->sock, "HDR", 3);
	mp_drop(c);
	write(c->sock, d, n);
}
`;

describe('calls handed the descriptor’s object between writes', () => {
  it('gathers across a call whose body changes other members only, and not across one that changes the descriptor', async () => {
    const a = await analyzer();
    const found = a.analyze(join(FIXTURES, 'member-params.c'), TEXT, DEFAULT_SETTINGS);
    assert.deepEqual(
      found.map((f) => TEXT.slice(0, f.span.start).split('\n').length),
      [16],
    );
  });

  it('answers the same in a keyed document, and again once the body reaches the descriptor', async () => {
    const a = await analyzer();
    const key = join(FIXTURES, 'member-params-keyed.c');
    assert.equal(a.analyze(key, TEXT, DEFAULT_SETTINGS, { key }).length, 1);
    const touched = TEXT.replace('p->seq++;', 'p->seq++;\n\tp->sock = 3;');
    assert.equal(a.analyze(key, touched, DEFAULT_SETTINGS, { key }).length, 0);
    assert.equal(a.analyze(key, TEXT, DEFAULT_SETTINGS, { key }).length, 1);
  });
});
