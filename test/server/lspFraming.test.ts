// The frame filter in front of the JSON-RPC reader: well-formed frames pass unchanged however the
// bytes are split, and each kind of bad frame is reported once and skipped.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { FrameFilter, type FrameProblem } from 'writev-lint/out/lsp/framing';

function frame(body: string): string {
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** What the filter passes on and reports for `input` written in chunks cut at `cuts`. */
async function filter(
  input: string,
  cuts: number[] = [],
): Promise<{ out: string; problems: FrameProblem[] }> {
  const problems: FrameProblem[] = [];
  const f = new FrameFilter((p) => problems.push(p));
  const chunks: Buffer[] = [];
  f.on('data', (c: Buffer) => chunks.push(c));
  const bytes = Buffer.from(input);
  let at = 0;
  for (const cut of [...cuts.filter((c) => c > 0 && c < bytes.length)].sort((a, b) => a - b)) {
    f.write(bytes.subarray(at, cut));
    at = cut;
  }
  f.end(bytes.subarray(at));
  await new Promise((resolve) => f.on('end', resolve));
  return { out: Buffer.concat(chunks).toString(), problems };
}

const GOOD = [
  frame('{"jsonrpc":"2.0","id":1,"method":"a","params":{"text":"caf\u00e9 Content-Length: 9\\r\\n"}}'),
  `Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n${frame('{"jsonrpc":"2.0","method":"b"}')}`,
  frame(''),
];

describe('LSP frame filter', () => {
  it('passes well-formed frames through unchanged, however the bytes are split', async () => {
    const input = GOOD.join('');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(input.length), { maxLength: 8 }), async (cuts) => {
        const { out, problems } = await filter(input, cuts);
        assert.deepEqual(problems, []);
        assert.equal(out, input);
      }),
    );
  });

  const bad: [string, string, RegExp][] = [
    [
      'a Content-Length that is not a number',
      'Content-Length: abc\r\n\r\n{"id":5}',
      /"abc" is not a byte count/,
    ],
    ['no Content-Length', 'Content-Type: x\r\n\r\n{"id":5}', /without a Content-Length/],
    [
      'two Content-Lengths',
      'Content-Length: 8\r\nContent-Length: 9\r\n\r\n{"id":5}',
      /cut short|more than one/,
    ],
    [
      'a Content-Length over the limit',
      'Content-Length: 99999999999\r\n\r\n{}',
      /not a byte count|over the limit/,
    ],
    [
      'a body cut short by the next frame',
      'Content-Length: 500\r\n\r\n{"id":',
      /ended after 6 of the 500 bytes/,
    ],
    ['bytes between frames', 'garbage\n', /not a frame/],
  ];
  for (const [name, junk, message] of bad) {
    it(`reports ${name} once and reads the frames after it`, async () => {
      const input = GOOD[0] + junk + GOOD[0] + GOOD[1];
      for (const cuts of [[], [GOOD[0]!.length + 3], Array.from({ length: 40 }, (_, i) => i * 7)]) {
        const { out, problems } = await filter(input, cuts);
        assert.equal(out, GOOD[0]! + GOOD[0]! + GOOD[1]!);
        assert.equal(problems.length, 1, JSON.stringify(problems));
        assert.match(problems[0]!.message, message);
      }
    });
  }
});
