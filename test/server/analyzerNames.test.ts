// The analyzer is built for code it has never seen, so it must not look up the names of the code it was
// measured on. The corpus projects' own identifiers may appear only in the opt-in presets
// (server/src/analyzer/presets.ts), which a user of that project names in `.writev-lint.json`.
//
// What counts as a project's own name (the rule, written down so that the list below stays honest):
// - a corpus file defines, declares or calls it at file scope (a function, a function-like macro, a
//   macro, a struct/union/enum tag, a typedef, a global), or spells it as an absolute path literal;
// - exactly one corpus project uses it: a name two projects give the same thing independently
//   (`xmalloc`, `ARRAY_SIZE`, `ignore_result`, `die`, `strlcpy`) is a convention of C, which a project
//   the team never saw is as likely to follow;
// - the system headers the corpus includes do not declare it (read through this machine's
//   preprocessor: the C library, POSIX, Linux's UAPI), and a path is not one this machine has
//   (`/dev/null`, `/proc/self/fd`);
// - it is not Git's: Git is the product's origin and stays out of the corpus on purpose; the runtime
//   reimplements its write stack under the same names, and cgit is built on Git's library, so cgit's
//   calls of Git's API (`strbuf_release`) are Git's names (GIT_NAMES, each one Git's own);
// - it is not the Linux kernel's byte-order API (`cpu_to_le32`, `be16_to_cpu`), a kernel interface that
//   projects copy under the kernel's names; userspace headers do not install it;
// - it is not a parameter name of the system's manual pages (`sockfd`, send(2)'s), which the analyzer
//   reads as a word for a descriptor;
// - it is not one plain English word that the analyzer uses as a word (ENGLISH: `panic`, `bug` and `emit`
//   as parts of a name that does I/O; `Socket`, `connection`, `Buffer.alloc` and `trim` as Node.js's and
//   JavaScript's own; `get` as a Map's method; `(call)` as a placeholder);
// - it is not the C language's own spelling that a project defines for itself (C_LANGUAGE: `noreturn`,
//   `__attribute`);
// - it is not a third-party library's public function that the catalogue lists as a write (LIBRARY_APIS:
//   `mbedtls_ssl_write`), whose headers this machine may not have.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { REPO } from './helpers';
import {
  analyzerHits,
  corpusNames,
  corpusPaths,
  regexWords,
  systemNames,
  type NameSource,
} from './corpusNames';

const CORPUS = join(REPO, 'test', 'server', 'corpus');
const ANALYZER = join(REPO, 'server', 'src', 'analyzer');
/** The one analyzer file allowed to name a project's identifiers, relative to ANALYZER. */
const PRESETS = 'presets.ts';

/**
 * Git's names that a corpus project also uses (cgit links Git's library; netsniff-ng, util-linux and
 * abduco reuse Git's helper names): `write_or_die` is Git's `write-or-die.c`, `xmkstemp` and `xsnprintf`
 * (which the analyzer knows as quiet, formatting into a buffer) Git's `wrapper.c`, the rest Git's
 * `strbuf.h`.
 */
const GIT_NAMES = new Set([
  'write_or_die',
  'xmkstemp',
  'xsnprintf',
  'strbuf_release',
  'strbuf_setlen',
  'strbuf_detach',
  'strbuf_trim',
]);

/** The Linux kernel's byte-order conversions (include/linux/byteorder/generic.h). */
const KERNEL_BYTE_ORDER = /^(?:cpu_to_(?:le|be)(?:16|32|64)|(?:le|be)(?:16|32|64)_to_cpu)$/;

/** Plain English words that the analyzer uses as words, not as a project's identifiers. */
const ENGLISH = new Set([
  'call',
  'get',
  'emit',
  'panic',
  'bug',
  'Socket',
  'connection',
  'alloc',
  'trim',
  'globals',
  // TypeScript's and Node.js's own words (`'local' in source`, `throw`, `process.stdout`, `child_process`,
  // `[].join`), and a joiner's name (`results`). `child_process` is also Git's `struct child_process`,
  // whose `in` the C defaults know as a pipe: Git is the product's origin, as presets.ts says.
  'local',
  'throw',
  'process',
  'child_process',
  'join',
  'results',
  // A joiner's name (`conditions`) and the model's word for the names a statement changes (`writes`),
  // which leafnode's string writer and procmail's rcfile conditions happen to spell the same way.
  'conditions',
  'writes',
  // What a helper's status says (`'success' | 'failure'`); tinc names a variable so, and the system
  // headers that would list it too (GSS-API's, with libkrb5-dev) are not on every machine. lrzip names
  // its fatal-error macro `failure`.
  'success',
  'failure',
  // A word of a helper's name that says it writes (`print`, beside `puts`); sysvinit names its console
  // printer so.
  'print',
  // The same verb in capitals (`SEND`, beside `WRITE` and `PUTS`), where a writer word may stand in a
  // name; wsServer names its send macro so.
  'SEND',
  // What a helper's status says of a stored success (`'sent'`) and the run fact the joiners read
  // (`run.sent`); screen names a struct so. `yield` is a JavaScript keyword, which the comment blanker
  // lists among the words a regular expression may follow; rlwrap names a function so.
  'sent',
  'yield',
  // TypeScript's own keyword (`this`), which the TS front end reads in member expressions; lzop's screen
  // driver defines a macro of that name.
  'this',
]);

/**
 * The C language's own spellings that a project may define for itself: `noreturn` is C11's
 * <stdnoreturn.h> macro and GCC's attribute (`__attribute__((noreturn))`), which the analyzer reads in
 * declarations; sninit defines the macro itself rather than include the header. `__attribute` is GCC's
 * alternate spelling of the `__attribute__` keyword, which the analyzer reads where an attribute list
 * opens; fuzzball declares with it, so the reading takes it for one of fuzzball's names.
 * `__builtin_add_overflow` and `__builtin_sub_overflow` are GCC's and Clang's checked-arithmetic
 * builtins (the compiler's reserved `__builtin_` names, no project's), which the analyzer reads as a
 * step of a count; bubblewrap calls the first, so the reading takes it for one of bubblewrap's names.
 */
const C_LANGUAGE = new Set(['noreturn', '__attribute', '__builtin_add_overflow', '__builtin_sub_overflow']);

/**
 * Parameter names of the system's own manual pages (send(2), connect(2): `int sockfd`), which the
 * analyzer reads as words that name a descriptor; a project may also name a global so.
 */
const MANUAL_PARAMETERS = new Set(['sockfd']);

/**
 * The C world's usual short names for a descriptor (`sd`, a socket descriptor, as network programming
 * texts and IBM's sockets documentation write it), which the analyzer read as descriptor words before
 * any corpus project that names a variable so was labelled (nrpe's global `sd`).
 */
const DESCRIPTOR_ABBREVIATIONS = new Set(['sd']);

/**
 * Third-party libraries' public functions that the analyzer's catalogue lists as writes (mbed TLS's
 * `mbedtls_ssl_write`, ssl.h), listed there before any corpus project that calls them was labelled
 * (mongrel2's TLS sender): a library's API is no project's own, but its headers are not on every machine,
 * so the system reading cannot vouch for it.
 */
const LIBRARY_APIS = new Set(['mbedtls_ssl_write']);

/** The names and paths that are one corpus project's own (the rule above). */
function projectsOwn(
  names: ReadonlyMap<string, NameSource>,
  paths: ReadonlyMap<string, NameSource>,
  system: ReadonlySet<string>,
): Map<string, NameSource> {
  const own = new Map<string, NameSource>();
  for (const [name, source] of names) {
    if (source.projects.size !== 1 || system.has(name) || GIT_NAMES.has(name)) continue;
    if (KERNEL_BYTE_ORDER.test(name) || ENGLISH.has(name) || MANUAL_PARAMETERS.has(name)) continue;
    if (C_LANGUAGE.has(name) || DESCRIPTOR_ABBREVIATIONS.has(name) || LIBRARY_APIS.has(name)) continue;
    own.set(name, source);
  }
  for (const [path, source] of paths) {
    if (source.projects.size === 1 && !existsSync(path)) own.set(path, source);
  }
  return own;
}

describe("the analyzer's source and the corpus projects' own names", () => {
  const names = corpusNames(CORPUS);
  const system = systemNames(CORPUS);
  const skip = system === undefined ? 'no C preprocessor (cc) to read the system headers with' : false;

  test(
    'the reading finds the names it must: project helpers, system names, spelled-out regex groups',
    { skip },
    () => {
      // A project's helper called in its files, and one defined there.
      assert.deepEqual([...(names.get('sshbuf_len')?.projects ?? [])], ['openssh']);
      // disque and rmilter are built on redis's sds strings, so all three call sdslen.
      assert.deepEqual([...(names.get('sdslen')?.projects ?? [])].sort(), ['disque', 'redis', 'rmilter']);
      assert.ok(names.get('writeall')?.projects.has('toybox'), 'toybox defines writeall');
      assert.ok(names.has('POKE_U32'), 'a macro called as a function');
      // The system's names, which are nobody's own.
      for (const name of ['write', 'writev', 'send', 'STDOUT_FILENO', 'IOV_MAX', 'SOCK_STREAM', 'htonl']) {
        assert.ok(system?.has(name), `${name} is declared by the system headers`);
      }
      assert.deepEqual([...regexWords('^(ll2string|POKE_U(16|32))$')].sort(), [
        'POKE_U16',
        'POKE_U32',
        'll2string',
      ]);
      const hits = analyzerHits(
        join(REPO, 'test', 'server', 'fixtures'),
        new Set(['never_a_name_xyz']),
        () => false,
      );
      assert.deepEqual(hits, []);
    },
  );

  test(
    "no function, macro, type, global or path that is one corpus project's own appears in the analyzer outside its presets",
    { skip },
    () => {
      const own = projectsOwn(names, corpusPaths(CORPUS), system ?? new Set());
      const hits = analyzerHits(ANALYZER, new Set(own.keys()), (file) => file === PRESETS);
      const lines = hits.map((h) => {
        const source = own.get(h.name);
        return `${h.file}:${h.line}: ${h.name} (${[...(source?.projects ?? [])].join(', ')}'s, ${source?.where ?? '?'})`;
      });
      assert.deepEqual(lines, [], `corpus projects' own names in the analyzer:\n${lines.join('\n')}`);
    },
  );
});
