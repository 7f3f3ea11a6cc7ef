// Installs the editor suite's code-server into the per-user cache, if it is not there yet. `npm test`
// starts it in the background before the unit tests, so the download overlaps them; the editor suite
// waits for a running install instead of starting its own.
import { codeServerCacheDir, ensureCodeServer } from './codeServer';

try {
  const entry = ensureCodeServer(codeServerCacheDir(), (line) => void process.stderr.write(`# ${line}\n`));
  process.stderr.write(`# code-server ready: ${entry}\n`);
} catch (err) {
  process.stderr.write(`# ${(err as Error).message}\n`);
  process.exitCode = 1;
}
