#!/usr/bin/env node
// Runs the compiled tests (out/test) with node's own test runner.
// Usage: node scripts/test.js [--slow] [--lint] [--install-editor] [--e2e] [suite...]
//   suites are folders of test/ (runtime, server, client, packages); with none, every *.test.js runs
//   but the slow ones below. --slow runs only the slow ones (npm run test:slow). --install-editor
//   installs the editor suite's code-server (test/e2e/codeServer.ts) in the background while the
//   tests run, when it is not installed yet: its download then overlaps them; --lint runs
//   `npm run lint` beside the tests, --e2e the editor suite (out/test/e2e/editor.e2e.js, which needs
//   the .vsix of `npm run package`); each fails the run if it fails (all three: npm test).
'use strict';
const {
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { spawn } = require('node:child_process');
const { pipeline } = require('node:stream/promises');
const { run } = require('node:test');

const root = join(__dirname, '..', 'out', 'test');

/**
 * The test files `npm test` leaves to `npm run test:slow`, each with what makes it slow: they install
 * packages, run benchmark suites that build real histories, compile and run every fixture with gcc,
 * or build many real repositories. Chosen by timing every file (the CPU time of each is in the
 * CHANGELOG); a file that grows slow belongs here, split from its fast tests where it has some.
 * Paths are relative to out/test.
 */
const SLOW = new Map([
  ['packages/install.test.js', 'installs the packed packages into fresh projects with npm'],
  ['runtime/catBlob/benchSuite.test.js', 'the cat-blob benchmark: builds histories, one from npm releases'],
  ['runtime/uploadPack/benchSuite.test.js', 'the sideband benchmark: a repository and its pack, every mode'],
  ['server/benchRun.test.js', "the analyzer's benchmark run"],
  ['runtime/catBlob/readAhead.test.js', 'writev-cat-blob with its writer thread over real histories'],
  [
    'runtime/catBlob/slow/ownDescriptors.test.js',
    "writev-cat-blob refusing each of Node's own descriptors 3 to 20, a node start each (npm test checks eight)",
  ],
  [
    'runtime/catBlob/fastImportParity.test.js',
    'git fast-import and writev-cat-blob over every fixture repository',
  ],
  ['runtime/odb/readObjects.test.js', 'every object of repositories in each packing git makes'],
  ['runtime/uploadPack/cacheSafety.test.js', 'the pack cache against real fetches and repository changes'],
  ['runtime/trace/writeCallScanner.test.js', "the scanner against TypeScript's parser on many sources"],
  ['server/fixedCompiles.test.js', 'every fixed fixture through gcc and the TypeScript compiler'],
  ['server/fixedBytes.test.js', 'every idiom fixture built with gcc before and after its fix, and run'],
  ['server/traceJoin.test.js', 'programs built with gcc and traced, then linted with their traces'],
  [
    'runtime/http/cloneVsBackend.test.js',
    'writev-upload-pack over HTTP against git http-backend: clones, fetches of many stateless rounds',
  ],
  [
    'runtime/http/slow/cloneGitUploadPack.test.js',
    "http/clone.test.js's clones and fetches served by git upload-pack, the twin of its writev-upload-pack ones",
  ],
  [
    'runtime/uploadPack/slow/v0Matrix.test.js',
    'every v0 capability and negotiation case against git upload-pack',
  ],
  [
    'runtime/uploadPack/slow/filterMatrix.test.js',
    'every filter spec, v0 and v2, file:// and ssh partial clones against git upload-pack',
  ],
  [
    'runtime/uploadPack/slow/shallowRequestTwins.test.js',
    'each shallow request case by the other protocol than npm test sends it, against git upload-pack',
  ],
  [
    'runtime/uploadPack/slow/namespaceSettings.test.js',
    'the namespace and hideRefs settings npm test leaves out (it serves one of each kind), against git upload-pack',
  ],
  [
    'runtime/uploadPack/slow/shallowMatrix.test.js',
    'every shallow clone and fetch by protocol v0 and v2, file:// and ssh, against git upload-pack',
  ],
]);

/**
 * The test files that take longest, started first: the run's two slots then end on short files rather
 * than on one long file with a core idle beside it. Longest first, by their wall time in a quiet run or
 * their CPU time in a busy one; the rest follow in name order (runFiles keeps this order, which
 * `node --test` would not). Paths are relative to out/test. Files that bound a response
 * time (server/lsp.test.js answers "promptly", server/cliWatch.test.js within a second) stay out of it:
 * they run late, once the lint and the editor suite beside the tests have usually ended.
 */
const FIRST = [
  'runtime/http/clone.test.js',
  'runtime/http/inProcess.test.js',
  'client/webview.test.js',
  'runtime/uploadPack/filter.test.js',
  'server/lspLiveSettings.test.js',
  'server/cliCache.test.js',
  'runtime/uploadPack/shallow.test.js',
  'runtime/catBlob/catBlobFd.test.js',
  'runtime/uploadPack/namespaces.test.js',
  'server/lintSkips.test.js',
  'server/cShapes.test.js',
  'runtime/uploadPack/wantRef.test.js',
  'server/tsStreams.test.js',
  'runtime/uploadPack/statelessRpc.test.js',
];

function testFiles(dir) {
  const files = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...testFiles(path));
    else if (name.endsWith('.test.js')) files.push(path);
  }
  return files;
}

/**
 * How many test files run at once. Most files wait on the processes they start (git, the runtime's bins,
 * the language server), so two at a time keep two cores busy where node's default (one fewer than the
 * cores) would leave one idle on a 2-core machine. `WRITEV_TEST_CONCURRENCY` overrides it.
 */
const CONCURRENCY = Number(process.env.WRITEV_TEST_CONCURRENCY) || 2;

/**
 * How long one test file may run before it fails (node 20 applies --test-timeout to each file): a file
 * whose tests all passed but that leaves a server or a child open never exits, and would otherwise hold
 * the run forever. Generous, for a machine shared with other jobs; `WRITEV_TEST_TIMEOUT_MS` overrides it.
 */
const TIMEOUT_MS = Number(process.env.WRITEV_TEST_TIMEOUT_MS) || 10 * 60_000;

/**
 * Starts `out/test/e2e/installCodeServer.js` in its own process group, its output to a log file.
 * Returns undefined when code-server is installed already or the e2e harness is not built.
 */
function startEditorInstall() {
  const script = join(root, 'e2e', 'installCodeServer.js');
  if (!existsSync(script)) return undefined;
  const { codeServerCacheDir, installed } = require(join(root, 'e2e', 'codeServer.js'));
  if (installed(codeServerCacheDir())) return undefined;
  const logFile = join(root, 'code-server-install.log');
  mkdirSync(root, { recursive: true });
  const out = openSync(logFile, 'w');
  const child = spawn(process.execPath, [script], { stdio: ['ignore', out, out], detached: true });
  console.log(`# installing code-server in the background while the tests run (log: ${logFile})`);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  return { child, logFile, exited };
}

/** Stops the background install and everything it started (npm, node-gyp). */
function stopEditorInstall(install) {
  if (install === undefined || install.child.exitCode !== null) return;
  try {
    process.kill(-install.child.pid, 'SIGTERM');
  } catch {
    // the group has gone already
  }
}

const args = process.argv.slice(2);
const slow = args.includes('--slow');
// The slow files build histories and compile every fixture: each may take several times longer.
const timeoutMs = slow ? 3 * TIMEOUT_MS : TIMEOUT_MS;
const suites = args.filter((a) => !a.startsWith('--'));
const missing = [...SLOW.keys(), ...FIRST].filter((f) => !existsSync(join(root, f)));
if (missing.length > 0) {
  // A renamed or deleted file would otherwise drop out of both runs (or out of its place) without a word.
  console.error(
    `scripts/test.js: the slow or first list names files that do not exist: ${missing.join(', ')}`,
  );
  process.exit(2);
}
const dirs = suites.length > 0 ? suites.map((s) => join(root, s)) : [root];
/** A file's path relative to out/test, with forward slashes (the form of SLOW and FIRST). */
const relative = (file) =>
  file
    .slice(root.length + 1)
    .split('\\')
    .join('/');
const isSlow = (file) => SLOW.has(relative(file));
/** Where a file starts: FIRST's order, then every other file. */
const rank = (file) => {
  const i = FIRST.indexOf(relative(file));
  return i === -1 ? FIRST.length : i;
};
// A stable sort: the files outside FIRST keep their name order.
const files = dirs
  .flatMap(testFiles)
  .filter((f) => isSlow(f) === slow)
  .sort((a, b) => rank(a) - rank(b));
if (files.length === 0) {
  console.error(`no ${slow ? 'slow ' : ''}tests found under ${dirs.join(', ')} (run npm run build first)`);
  process.exit(2);
}
/** Runs `command` in its own process group with its output kept, for a job beside the tests. */
function startBeside(command, args) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) =>
    child.once('close', (code, signal) => resolve({ status: code ?? (signal ? 1 : 0), output })),
  );
  return { child, exited };
}

/** Stops a job started by startBeside and everything it started. */
function stopBeside(job) {
  if (job === undefined || job.child.exitCode !== null || job.child.signalCode !== null) return;
  try {
    process.kill(-job.child.pid, 'SIGTERM');
  } catch {
    // the group has gone already
  }
}

const reporter = process.env.TEST_REPORTER ?? 'spec';
const install = args.includes('--install-editor') ? startEditorInstall() : undefined;
// ESLint runs in one thread for most of a minute: beside the test files, which spend much of their
// time waiting on the processes they start, it costs the run little of its length.
const lint = args.includes('--lint')
  ? startBeside(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'lint', '--silent'])
  : undefined;
if (lint) console.log('# linting (ESLint, Prettier) while the tests run; its report follows theirs');
// The editor suite spends much of its time waiting on code-server, the extension host and the browser:
// beside the test files it fills the cores' idle moments instead of adding its length after them. It
// reads only the packaged .vsix and dist/, which nothing rewrites while the tests run. With an install
// under way it starts once that has ended, so it never begins a second install of its own.
let e2e;
const startE2e = () => {
  e2e = startBeside(process.execPath, [
    '--test',
    `--test-reporter=${reporter}`,
    join(root, 'e2e', 'editor.e2e.js'),
  ]);
};
/** Settles when the editor suite has been started (or was not asked for). */
const e2eStarted = !args.includes('--e2e')
  ? Promise.resolve()
  : install === undefined
    ? Promise.resolve(startE2e())
    : install.exited.then(startE2e);
if (args.includes('--e2e'))
  console.log('# the editor suite (code-server, chromium) runs beside the tests; its report follows theirs');
/**
 * The fixture repositories the test files share (test/runtime/uploadPack/helpers/gitRepo.ts): each
 * is built once for the run by the first file that needs it, then copied; removed when the run ends.
 */
const fixtures = mkdtempSync(join(tmpdir(), 'writev-test-fixtures-'));
process.once('exit', () => rmSync(fixtures, { recursive: true, force: true }));
for (const signal of ['SIGINT', 'SIGTERM'])
  process.once(signal, () => {
    stopEditorInstall(install);
    stopBeside(lint);
    stopBeside(e2e);
    process.exit(130);
  });

/**
 * The reporter named by TEST_REPORTER (a built-in one of node:test/reporters, or a module), as a
 * transform for run()'s stream: the built-ins that are classes (spec) are instantiated, as
 * `--test-reporter` does.
 */
function reporterStream(name) {
  const builtin = require('node:test/reporters');
  let chosen = Object.hasOwn(builtin, name)
    ? builtin[name]
    : require(require.resolve(name, { paths: [process.cwd()] }));
  if (typeof chosen?.default === 'function') chosen = chosen.default;
  if (chosen?.prototype && Object.getOwnPropertyDescriptor(chosen.prototype, 'constructor'))
    chosen = new chosen();
  return chosen;
}

/**
 * Runs `files` in the order given, CONCURRENCY at a time, and resolves to 0 when every test passed,
 * 1 otherwise. node:test's own API, not `node --test`: the command line sorts the files by name
 * (node 20), which would start FIRST's files wherever their names fall.
 */
async function runFiles(files) {
  // The children get the environment of the moment they start.
  process.env.WRITEV_TEST_FIXTURES = fixtures;
  let failed = false;
  const stream = run({ files, concurrency: CONCURRENCY, timeout: timeoutMs });
  // What `node --test` counts as a failure: a failed test that is not a todo.
  stream.on('test:fail', (data) => {
    if (data.todo === undefined || data.todo === false) failed = true;
  });
  await pipeline(stream, reporterStream(reporter), process.stdout, { end: false });
  return failed ? 1 : 0;
}

async function main() {
  const status = await runFiles(files);
  let failed = status !== 0;
  if (lint) {
    if (lint.child.exitCode === null) console.log('# waiting for the lint');
    const result = await lint.exited;
    if (result.status !== 0) {
      console.log(`# npm run lint failed (${result.status}):\n${result.output}`);
      failed = true;
    } else console.log('# npm run lint: no problems');
  }
  if (args.includes('--e2e')) {
    // Waited for even when a test file failed: its report says whether the editor still works.
    if (e2e === undefined) console.log('# waiting for the background code-server install');
    await e2eStarted;
    if (e2e.child.exitCode === null) console.log('# waiting for the editor suite');
    const result = await e2e.exited;
    console.log(`# the editor suite (out/test/e2e/editor.e2e.js):\n${result.output}`);
    if (result.status !== 0) failed = true;
  }
  if (failed || install === undefined) {
    stopEditorInstall(install);
    process.exit(failed ? status || 1 : 0);
  }
  if (install.child.exitCode === null) console.log('# waiting for the background code-server install');
  // A failed install is the editor suite's to report (it tries again, and names what is missing).
  if ((await install.exited) !== 0)
    console.log(`# the code-server install failed:\n${readFileSync(install.logFile, 'utf8')}`);
}

void main();
