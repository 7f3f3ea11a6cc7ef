// The write-call scanner and the rewrite it drives: only real calls are marked (never text in strings,
// templates, comments or regular expressions), the marker wraps exactly the last argument, and the
// scanner agrees with TypeScript's parser on real files.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { findWriteCalls, WRITE_METHODS } from '@writev/runtime/dist/trace/writeCallScanner';
import { rewriteWriteCalls } from '@writev/runtime/dist/trace/callSiteIds';
import { REPO } from './helpers';

/** The rewrite of `source`, with the site numbers blanked (they depend on what was rewritten before). */
function rewritten(source: string): string {
  return rewriteWriteCalls(source, '/virtual/app.js').replaceAll(
    /\(typeof __writevSite=="function"\?__writevSite:\(i,v\)=>v\)\(\d+,/g,
    '__writevSite(#,',
  );
}

describe('the write-call scanner', () => {
  it('marks real calls only: not text in strings, templates, comments or regular expressions', () => {
    const source = [
      "const s = 'a.write(1)' + \"fs.writeSync(1, 'x')\"; // out.write(2)",
      '/* process.stdout.write(3) */',
      'const t = `x.write(4) ${out.write(q, `in ${y.write(z)}`)} .end(5)`;',
      "const re = /\\.write\\((\\d)\\)/g, d = a / b.write(c) / e; if (x) /'.write(/.test(y.end(k));",
      'fs.writeSync(fd, buf,); fs.writevSync(fd, ...parts); obj.end(); maybe?.write(f(a, b), (c) => g.write(c));',
      '',
    ].join('\n');
    assert.equal(
      rewritten(source),
      [
        "const s = 'a.write(1)' + \"fs.writeSync(1, 'x')\"; // out.write(2)",
        '/* process.stdout.write(3) */',
        'const t = `x.write(4) ${out.write(q, __writevSite(#,`in ${y.write(__writevSite(#,z))}`))} .end(5)`;',
        "const re = /\\.write\\((\\d)\\)/g, d = a / b.write(__writevSite(#,c)) / e; if (x) /'.write(/.test(y.end(__writevSite(#,k)));",
        'fs.writeSync(fd, __writevSite(#,buf),); fs.writevSync(fd, ...parts); obj.end(); maybe?.write(f(a, b), __writevSite(#,(c) => g.write(__writevSite(#,c))));',
        '',
      ].join('\n'),
    );
  });

  it('tells a regular expression from a division by the token before the slash', () => {
    const source = [
      'function f() {}',
      "/'/.test(a.write(1));", // after a block's }: a regular expression holding a quote
      "x = ({}) / 2; y = {}.a / b.write(2) / 3; z = (c) / d.write('/');", // after a value: divisions
      "return_ = a.return / b.write(3); w = typeof /'/.source + e.write(4);",
      'for (const v of /,/g[Symbol.split](h)) k.write(v);',
      '',
    ].join('\n');
    const calls = findWriteCalls(source);
    assert.deepEqual(
      calls?.map((c) => source.slice(c.argStart, c.argEnd)),
      ['1', '2', "'/'", '3', '4', 'v'],
    );
  });

  it('leaves definitions alone: methods, functions and object properties named like a write method', () => {
    const source = [
      'const w = new Writable({ write(chunk, encoding, callback) { callback(); } });',
      'class Sink { writev(chunks, cb) { cb(); } end(chunk) { return this; } }',
      'function writeSync(fd, data) { return 0; }',
      'const table = { write: fs.write, writeSync };',
      'writeSync(1, data); // a bare call of a destructured fs function is a call',
      '',
    ].join('\n');
    assert.deepEqual(
      findWriteCalls(source)?.map((c) => `${c.method}:${source.slice(c.argStart, c.argEnd)}`),
      ['writeSync:data'],
    );
  });

  it('answers undefined for a source it cannot be sure of, so that nothing is rewritten', () => {
    for (const source of [
      "out.write('unterminated);",
      'out.write(`no end ${a}',
      'out.write(a));',
      'out.write(a /* open comment',
      'x = 1;\n<!-- an HTML-like comment\nout.write(a);',
      'label: {}\n/a/.test(out.write(b));', // `}` of a label's block, or of an object in `? :`
    ]) {
      assert.equal(findWriteCalls(source), undefined, source);
      assert.equal(rewriteWriteCalls(source, '/virtual/x.js'), source, source);
    }
    // `x-->0` is a decrement and a comparison, not a comment.
    assert.deepEqual(findWriteCalls('while (n-->0) out.write(n);')?.length, 1);
  });

  it('keeps lines where they were, and leaves files with a source map or the marker name alone', () => {
    const source = 'a.write(1);\r\nb.write(2);\rc.write(3);\u2028d.write(4);\n';
    assert.equal(
      rewritten(source).split(/\r\n|[\r\n\u2028]/).length,
      source.split(/\r\n|[\r\n\u2028]/).length,
    );
    const mapped = 'a.write(1);\n//# sourceMappingURL=app.js.map\n';
    assert.equal(rewriteWriteCalls(mapped, '/virtual/m.js'), mapped);
    const named = 'const __writevSite = 1; a.write(1);\n';
    assert.equal(rewriteWriteCalls(named, '/virtual/n.js'), named);
  });

  it('finds exactly the calls TypeScript parses in real files (every .js file in node_modules that calls a write method by name)', () => {
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
        a.name < b.name ? -1 : 1,
      )) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.isFile() && entry.name.endsWith('.js') && statSync(path).size < 400_000)
          files.push(path);
      }
    };
    walk(join(REPO, 'node_modules'));
    const sample = files
      .map((file) => ({ file, text: readFileSync(file, 'utf8') }))
      .filter(({ text }) => /\b(?:write|writeSync|writev|writevSync|end)\s*\(/.test(text));
    assert.ok(sample.length > 150, `only ${sample.length} files`);
    const methods = new Set<string>(WRITE_METHODS);
    const bare = new Set(['writeSync', 'writevSync', 'write', 'writev']);
    let compared = 0;
    let calls = 0;
    for (const { file, text } of sample) {
      const tree = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
      if ((tree as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics.length > 0) continue;
      const expected: string[] = [];
      const visit = (node: ts.Node): void => {
        if ((ts.isCallExpression(node) && !node.questionDotToken) || ts.isNewExpression(node)) {
          const callee = node.expression;
          const named =
            (ts.isPropertyAccessExpression(callee) &&
              ts.isIdentifier(callee.name) &&
              methods.has(callee.name.text)) ||
            (ts.isIdentifier(callee) && bare.has(callee.text));
          const last = node.arguments?.[node.arguments.length - 1];
          if (named && last && !ts.isSpreadElement(last))
            expected.push(`${last.getStart()}-${last.getEnd()}`);
        }
        ts.forEachChild(node, visit);
      };
      visit(tree);
      const found = findWriteCalls(text);
      assert.ok(found, `${file}: the scanner gave up`);
      assert.deepEqual(
        found.map((c) => `${c.argStart}-${c.argEnd}`).sort(),
        expected.sort(),
        `${file}: calls differ from TypeScript's`,
      );
      compared++;
      calls += expected.length;
    }
    assert.ok(compared > 150 && calls > 300, `${compared} files, ${calls} calls`);
  });
});
