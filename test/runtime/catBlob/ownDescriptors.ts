import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { git, GIT_ENV } from '../odb/helpers/gitFixtures';
import { CAT_BLOB_BIN } from './helpers';

/** The kinds of descriptor a Node process holds before any script runs, as the refusal names them. */
export const OWN_KINDS = ['anon_inode:[eventpoll]', 'anon_inode:[eventfd]', 'pipe', 'is not open'];

/**
 * Defines the test that `writev-cat-blob --cat-blob-fd=N` refuses each of `fds` when given only 0-2:
 * 128 and a message naming what the descriptor is, never a crash or a silent 0. Each descriptor
 * costs a node start; `kinds` are the kinds the refusals must name among them.
 */
export function defineOwnDescriptorSuite(fds: readonly number[], kinds: readonly string[] = OWN_KINDS): void {
  describe('writev-cat-blob --cat-blob-fd on descriptors Node opened itself', () => {
    let dir: string;
    let request: string;
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'writev-catblob-own-fd-'));
      git(dir, ['init', '-q', '--bare', 'repo.git']);
      const oid = git(join(dir, 'repo.git'), ['hash-object', '-w', '--stdin'], 'own descriptors\n')
        .toString()
        .trim();
      request = `cat-blob ${oid}\n`;
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it(`never writes to one of Node’s own descriptors (${fds.join(', ')}): 128 and a message for each, no crash, no silent 0`, () => {
      // With only 0-2 given, 3.. are Node's: its epoll and eventfd descriptors and its wake-up and
      // signal pipes (before the check, 7 and 12 crashed with SIGSEGV and 5 exited 0 with the
      // answer lost).
      const seen = new Set<string>();
      for (const fd of fds) {
        const result = spawnSync(
          process.execPath,
          [CAT_BLOB_BIN, `--git-dir=${join(dir, 'repo.git')}`, `--cat-blob-fd=${fd}`],
          { env: GIT_ENV, input: request, encoding: 'utf8' },
        );
        if (result.error) throw result.error;
        assert.equal(result.signal, null, `--cat-blob-fd=${fd} died of ${result.signal}`);
        assert.equal(result.status, 128, `--cat-blob-fd=${fd}: ${result.stderr}`);
        assert.equal(result.stdout, '');
        const match =
          /^fatal: --cat-blob-fd=(\d+): descriptor \1 (is not open|is one of Node's own descriptors \((anon_inode:\[\w+\]|pipe:)|is open for reading only)/.exec(
            result.stderr,
          );
        assert.ok(match, `--cat-blob-fd=${fd}: ${result.stderr}`);
        seen.add(match[3]?.startsWith('pipe') ? 'pipe' : (match[3] ?? match[2]!));
      }
      for (const kind of kinds) {
        assert.ok(seen.has(kind), `no descriptor of kind ${kind} among ${[...seen].join(', ')}`);
      }
    });
  });
}
