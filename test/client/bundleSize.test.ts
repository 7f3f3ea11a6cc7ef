import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { ROOT } from './helpers';

/** What VS Code loads to activate the extension may weigh this much, minified. */
const ENTRY_BUNDLE_LIMIT = 40 * 1024;

let dir: string;
let outfile: string;
let metafile: Metafile;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'writev-bundle-'));
  outfile = join(dir, 'client.js');
  // The production options of dist/client.js, from the one script that builds it.
  const script = (await import(pathToFileURL(join(ROOT, 'esbuild.mjs')).href)) as {
    clientBuildOptions: (production: boolean, outfile?: string) => BuildOptions;
  };
  const result = await build({
    ...script.clientBuildOptions(true, outfile),
    metafile: true,
    logLevel: 'silent',
  });
  metafile = result.metafile;
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** The bundle's inputs from the runtime package, relative to the runtime folder. */
function runtimeInputs(): string[] {
  return Object.keys(metafile.inputs)
    .map((input) => relative(join(ROOT, 'runtime'), join(ROOT, input)).split(sep).join('/'))
    .filter((input) => !input.startsWith('..'));
}

describe('the extension’s entry bundle (dist/client.js, production)', () => {
  it(`weighs at most ${ENTRY_BUNDLE_LIMIT / 1024} KB`, () => {
    const size = statSync(outfile).size;
    assert.ok(size <= ENTRY_BUNDLE_LIMIT, `dist/client.js is ${size} bytes, over ${ENTRY_BUNDLE_LIMIT}`);
  });

  it('takes from the runtime only the benchmark formats, never the write stack or the readers', () => {
    const inputs = runtimeInputs();
    assert.ok(inputs.length > 0, 'the panel’s formats come from @writev/runtime/bench');
    const outside = inputs.filter(
      (input) => !/^(dist|src)\/bench\/(index|format|stats|result)\.[jt]s$/.test(input),
    );
    assert.deepEqual(outside, [], `runtime code outside the benchmark formats: ${outside.join(', ')}`);
    // Named once more, so the message says which part came in.
    for (const part of [
      'inFull',
      'orDie',
      'xwrite',
      'nodeSys',
      'uploadPack/',
      'odb/',
      'catBlob/',
      'protocol/',
    ]) {
      const found = inputs.find((input) => input.includes(`/${part}`));
      assert.equal(found, undefined, `the runtime's ${part} is in the entry bundle`);
    }
  });
});
