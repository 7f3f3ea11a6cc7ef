// Loads writev-lint's bundles (server/dist/cli/main.js and worker.js) with the V8 code cache that
// `npm run build` made beside each (`main.js.cache`): the bytecode of every function a run over real C
// compiled. Without it each thread of each run compiles the bundle's functions again as it first calls
// them, and a worker compiles its whole analyzer before it lints its first file, while the main thread
// waits for its share of the work.
//
// V8 takes a cache only when it was made by the same V8 under the same flags, and otherwise compiles as
// usual: so the batch run's V8 flags are set here, before anything is compiled, the ones the pool sets
// again when a run starts (pool.ts, batchTiering). V8 checks a cache against the source's length only,
// so each cache records the length and the first line of the bundle it was made from, where the build
// names itself (esbuild.mjs), and is not used for any other bundle: not for one built again without its
// cache. Not the file's time, which npm sets to one date for every file it packs.
'use strict';
const { readFileSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const { dirname } = require('node:path');
const { setFlagsFromString } = require('node:v8');
const vm = require('node:vm');

/** The V8 flags of a batch run: pool.ts's batchTiering sets the same (a test checks a cache is taken). */
const BATCH_FLAGS = ['--liftoff-only', `--interrupt-budget=${8 * 66 * 1024}`];

/**
 * `WRITEV_LINT_CODE_CACHE=write`: make the caches (the build does, over real C; see
 * scripts/code-cache.js). `report`: say on stderr whether each bundle's cache was taken.
 */
const MODE = process.env.WRITEV_LINT_CODE_CACHE;

/** Scripts compiled without a usable cache, to make one from when the run is over (write mode). */
const made = [];

/** The first line of a cache file: what the bundle (its text `source`) was when the cache was made. */
function stampOf(source) {
  const newline = source.indexOf('\n');
  const head = newline < 0 ? source : source.slice(0, newline);
  return JSON.stringify({ length: source.length, head, v8: process.versions.v8 });
}

/** The cached bytecode for `path`, or undefined when there is none made from this very `source`. */
function cacheFor(path, source) {
  let data;
  try {
    data = readFileSync(`${path}.cache`);
  } catch {
    return undefined;
  }
  const newline = data.indexOf(10);
  if (newline < 0 || data.subarray(0, newline).toString() !== stampOf(source)) return undefined;
  return data.subarray(newline + 1);
}

/** Writes the cache of `script` (compiled from `source`, read from `path`) beside it, whole or not at all. */
function save(script, path, source) {
  const temporary = `${path}.cache.${process.pid}.${Math.random().toString(36).slice(2)}`;
  try {
    writeFileSync(temporary, Buffer.concat([Buffer.from(`${stampOf(source)}\n`), script.createCachedData()]));
    renameSync(temporary, `${path}.cache`);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

function saveAll() {
  for (const [script, path, source] of made.splice(0)) save(script, path, source);
}

/**
 * Loads the CommonJS bundle at `path` as `require` would, with its code cache when there is one made
 * from it. Returns the bundle's exports.
 */
function requireBundle(path) {
  for (const flag of BATCH_FLAGS) setFlagsFromString(flag);
  const source = readFileSync(path, 'utf8');
  const cachedData = cacheFor(path, source);
  const script = new vm.Script(Module.wrap(source), { filename: path, cachedData });
  const taken = cachedData !== undefined && !script.cachedDataRejected;
  if (MODE === 'report')
    process.stderr.write(`writev-lint: code cache of ${path}: ${taken ? 'taken' : 'not taken'}\n`);
  if (MODE === 'write' && !taken) made.push([script, path, source]);
  // Its own `require` resolves from the bundle's folder (createRequire), as the module tree's would.
  const module = new Module(path, require.main);
  module.filename = path;
  require.cache[path] = module;
  script.runInThisContext()(module.exports, Module.createRequire(path), module, path, dirname(path));
  module.loaded = true;
  return module.exports;
}

if (MODE === 'write') {
  // The main thread's bundle has compiled what the run needed when the process ends; a worker never
  // ends on its own (the run does not wait for it), so its cache is made when it sends its results.
  const threads = require('node:worker_threads');
  if (threads.isMainThread) process.once('exit', saveAll);
  else if (threads.parentPort) {
    const port = threads.parentPort;
    const post = port.postMessage.bind(port);
    port.postMessage = (message, transfer) => {
      saveAll();
      return post(message, transfer);
    };
  }
}

module.exports = { requireBundle };
