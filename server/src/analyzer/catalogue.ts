// The one place that knows which functions write, in C and in TypeScript/JavaScript, and what each one's
// gathered counterpart is. Users extend it through settings (see settings.ts).
import { PRESETS, presetsOf, type Preset } from './presets';
import { THREAD_LOCAL_GETTERS } from './c/sharedStateAccessors';
import type { AnalyzerSettings, WrapperSetting, WriteFunctionSetting } from './settings';

/** A C function that writes one buffer (or, if `gathered`, an iovec array) to a descriptor. */
export interface CWriteFunction {
  readonly name: string;
  /** Argument index of the descriptor. */
  readonly fd: number;
  /** Argument index of the buffer (or of the iovec array when `gathered`). */
  readonly buf: number;
  /** Argument index of the length in bytes (or of the iovec count); absent: a NUL-terminated string. */
  readonly len?: number;
  /** Number of arguments the call must have (absent: at least enough for the indexes above). */
  readonly arity?: number;
  /** Arguments that must have a fixed value for the call to be a plain write (`send(..., 0)`). */
  readonly fixed?: { readonly index: number; readonly text: string };
  /**
   * Arguments that must be a null pointer or zero for the call to be a plain write: `sendto()` given no
   * address (`NULL, 0`) is `send()` on a connected socket.
   */
  readonly unaddressed?: readonly number[];
  /** Takes an iovec array already (it can absorb a neighbouring write). */
  readonly gathered?: boolean;
  /** The gathered function a sequence of these becomes (keeps the error-handling contract). */
  readonly gatheredName?: string;
  /**
   * One call may be one message: code that calls plain `write`/`send` without a loop for short writes
   * often writes to a datagram socket or a device (FunctionFS, tun, a virtual NCI device) where each
   * write is a packet, and gathering would merge packets. Counted only on stdout and stderr.
   */
  readonly messages?: boolean;
  /**
   * A function of the C library or a TLS library, declared by its header. A project's definition of
   * it in another file of the tree is an interposer or a test stub, not what the other files call, so
   * only a definition in the calling file itself replaces it (see cWriteFunctionsFor).
   */
  readonly library?: boolean;
  /**
   * The file redefines the name for another platform under a preprocessor condition (see
   * conditionalDefines.ts): its calls are read as the C library's, but a fix would call the gathered
   * function where that platform may have none.
   */
  readonly respelled?: boolean;
}

/** The C write functions known by default (Git's write stack and POSIX). Not `fwrite`: it buffers. */
export const C_WRITE_FUNCTIONS: readonly CWriteFunction[] = [
  { name: 'write', library: true, fd: 0, buf: 1, len: 2, arity: 3, gatheredName: 'writev', messages: true },
  { name: 'xwrite', fd: 0, buf: 1, len: 2, arity: 3, gatheredName: 'xwritev' },
  { name: 'write_in_full', fd: 0, buf: 1, len: 2, arity: 3, gatheredName: 'writev_in_full' },
  { name: 'write_or_die', fd: 0, buf: 1, len: 2, arity: 3, gatheredName: 'writev_or_die' },
  { name: 'write_str_in_full', fd: 0, buf: 1, arity: 2, gatheredName: 'writev_in_full' },
  {
    name: 'send',
    library: true,
    fd: 0,
    buf: 1,
    len: 2,
    arity: 4,
    fixed: { index: 3, text: '0' },
    gatheredName: 'writev',
    messages: true,
  },
  {
    name: 'sendto',
    library: true,
    fd: 0,
    buf: 1,
    len: 2,
    arity: 6,
    fixed: { index: 3, text: '0' },
    unaddressed: [4, 5],
    gatheredName: 'writev',
    messages: true,
  },
  // TLS libraries' writes: each call seals one record (or more) and sends it, a syscall per call;
  // the libraries have no gathered twin, so runs of them are reported without a fix.
  { name: 'SSL_write', library: true, fd: 0, buf: 1, len: 2, arity: 3 },
  { name: 'gnutls_record_send', library: true, fd: 0, buf: 1, len: 2, arity: 3 },
  { name: 'mbedtls_ssl_write', library: true, fd: 0, buf: 1, len: 2, arity: 3 },
  { name: 'wolfSSL_write', library: true, fd: 0, buf: 1, len: 2, arity: 3 },
  { name: 'writev', library: true, fd: 0, buf: 1, len: 2, arity: 3, gathered: true, gatheredName: 'writev' },
  { name: 'xwritev', fd: 0, buf: 1, len: 2, arity: 3, gathered: true, gatheredName: 'xwritev' },
  { name: 'writev_in_full', fd: 0, buf: 1, len: 2, arity: 3, gathered: true, gatheredName: 'writev_in_full' },
  { name: 'writev_or_die', fd: 0, buf: 1, len: 2, arity: 3, gathered: true, gatheredName: 'writev_or_die' },
];

/** A null pointer or zero, however it is cast (`NULL`, `0`, `(struct sockaddr *)NULL`). */
const NULLISH = /^(?:\([^()]*\))*(?:NULL|0|nullptr)$/;

/**
 * Whether a call of `fn` passes a null pointer or zero in each of its `unaddressed` arguments (always
 * true for a function without them). `arg` gives an argument's text by index.
 */
export function unaddressedCall(fn: CWriteFunction, arg: (index: number) => string | undefined): boolean {
  return (fn.unaddressed ?? []).every((i) => NULLISH.test(arg(i)?.replace(/\s+/g, '') ?? ''));
}

/**
 * How strict each gathered C family is about errors: dying beats returning the error after writing
 * everything, which beats restarting interrupted calls, which beats a plain call. A run of mixed
 * families is gathered into its strictest member's family (when their error handling allows).
 */
export const C_FAMILY_STRICTNESS: Readonly<Record<string, number>> = {
  writev: 1,
  xwritev: 2,
  writev_in_full: 3,
  writev_or_die: 4,
};

/**
 * Arguments a gathered C function takes before the descriptor, by function: the presets' (a preset's
 * gathered function appears in a fix only when the preset is on, so all of them can be listed here).
 */
export const C_GATHERED_LEADING_ARGS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.values(PRESETS).flatMap((p: Preset) => Object.entries(p.gatheredLeadingArgs ?? {})),
);

/**
 * Macros and functions that only discard the result of the call they wrap, to quiet
 * `warn_unused_result` (sudo's `ignore_result()`, gnulib's `ignore_value()`): the statement is the call.
 */
export const C_RESULT_DISCARDERS: ReadonlySet<string> = new Set([
  'ignore_result',
  'ignore_value',
  'IGNORE_RESULT',
]);

/** Descriptor spellings that mean the same descriptor. */
export const C_DESCRIPTOR_ALIASES: Readonly<Record<string, string>> = {
  STDIN_FILENO: '0',
  STDOUT_FILENO: '1',
  STDERR_FILENO: '2',
  'fileno(stdin)': '0',
  'fileno(stdout)': '1',
  'fileno(stderr)': '2',
};

/**
 * C functions whose result is a descriptor for a byte stream (a file, a pipe, a stream socket): plain
 * `write`/`send` on what they return may be gathered. `socket` counts only with `SOCK_STREAM`, `open`
 * only when its path is not a literal device path, `dup` only of a descriptor already known to stream.
 * Git's lock-file and temporary-file helpers return file descriptors too. Users add their own in the
 * settings (`writev.streamFunctions`).
 */
export const C_STREAM_FUNCTIONS: ReadonlySet<string> = new Set([
  'open',
  'open64',
  'openat',
  'openat64',
  'creat',
  'creat64',
  'mkstemp',
  'mkostemp',
  'mkstemps',
  'mkostemps',
  'socket',
  'dup',
  'dup2',
  'dup3',
  'xopen',
  'xmkstemp',
  'xmkstemp_mode',
  'git_mkstemp_mode',
  'git_mkstemps_mode',
  'odb_mkstemp',
  'hold_lock_file_for_update',
  'hold_lock_file_for_update_timeout',
  'get_lock_file_fd',
  'get_tempfile_fd',
]);

/**
 * C library functions documented (POSIX, C) to return a pointer to static storage that the next call
 * overwrites: two writes sending two of their results send the last one twice once gathered.
 */
export const C_STATIC_RETURNING: ReadonlySet<string> = new Set([
  'inet_ntoa',
  'ctime',
  'asctime',
  'ttyname',
  'strsignal',
]);

/** Calls that fill an array argument with two byte-stream descriptors (`pipe(fds)`), and which one. */
export const C_PIPE_FUNCTIONS: Readonly<Record<string, number>> = { pipe: 0, pipe2: 0, socketpair: 3 };

/** C functions that only compute (no I/O, no hidden state): allowed inside a loop that writes. */
/**
 * C library functions that release (or may move) the memory their first argument points to: a write
 * sent from that memory before the call cannot be gathered with one after it.
 */
export const C_FREEING_FUNCTIONS: ReadonlySet<string> = new Set([
  'free',
  'cfree',
  'munmap',
  'realloc',
  'reallocarray',
]);

/**
 * A project's own wrappers of `free`, by C's naming convention: a name that ends in `free` (`xfree`,
 * `myfree`, `g_free`, `sdsfree`). Their first argument is released as `free`'s is. (A `_release`
 * function empties an object, which may keep or reuse its memory: a fix moves it after the gathered
 * write, as any statement between.)
 */
const RELEASING_NAME = /free$/i;

/** The character classes and case mappings: a value from the character and the locale's tables. */
const CHARACTER_CLASSES = [
  'isalnum',
  'isalpha',
  'isascii',
  'isblank',
  'iscntrl',
  'isdigit',
  'isgraph',
  'islower',
  'isprint',
  'ispunct',
  'isspace',
  'isupper',
  'isxdigit',
  'tolower',
  'toupper',
];

/** True when a call of `name` releases the memory its first argument points to. */
export function freesFirstArgument(name: string): boolean {
  return C_FREEING_FUNCTIONS.has(name) || RELEASING_NAME.test(name);
}

export const C_PURE_FUNCTIONS: ReadonlySet<string> = new Set([
  'strlen',
  'strnlen',
  'ARRAY_SIZE',
  // A member's place in its struct: a constant of the compiler.
  'offsetof',
  ...CHARACTER_CLASSES,
  'st_add',
  'st_mult',
  'htonl',
  'htons',
  'ntohl',
  'ntohs',
  'min',
  'max',
  'MSB',
  'fileno',
  // Thread-local storage's getters: the same value twice in one thread (see c/sharedStateAccessors.ts).
  ...THREAD_LOCAL_GETTERS,
  // Accessors that read a lock file's or temporary file's descriptor out of its struct.
  'get_lock_file_fd',
  'get_tempfile_fd',
  // Byte-order conversions (glibc's <endian.h>, <byteswap.h>, and the kernel-style names).
  'htobe16',
  'htobe32',
  'htobe64',
  'htole16',
  'htole32',
  'htole64',
  'be16toh',
  'be32toh',
  'be64toh',
  'le16toh',
  'le32toh',
  'le64toh',
  'bswap_16',
  'bswap_32',
  'bswap_64',
  'cpu_to_le16',
  'cpu_to_le32',
  'cpu_to_le64',
  'cpu_to_be16',
  'cpu_to_be32',
  'cpu_to_be64',
  'le16_to_cpu',
  'le32_to_cpu',
  'le64_to_cpu',
  'be16_to_cpu',
  'be32_to_cpu',
  'be64_to_cpu',
  // Comparisons and searches in C strings and memory: they read their arguments and change nothing.
  'strcmp',
  'strncmp',
  'strcasecmp',
  'strncasecmp',
  'memcmp',
  'strchr',
  'strrchr',
  'strstr',
]);

/**
 * C functions that do no output (memory, strings, formatting into a buffer, the varargs macros,
 * byte-order helpers, Git's strbuf changes): a run to stdout or a global descriptor may cross a call to
 * one of them, and a printf-style helper may call them before its one write. Any other call between
 * such writes might print to the same place.
 */
export const C_QUIET_FUNCTIONS =
  /^(free|malloc|calloc|realloc|xmalloc|xcalloc|xrealloc|xstrdup|xstrndup|strdup|strndup|bzero|snprintf|sprintf|vsnprintf|vsprintf|asprintf|vasprintf|xsnprintf|va_(start|end|copy)|time|getpid|stpn?cpy|put_(be|le)(16|32|64))$|^(mem|str)[a-z]+$|^strbuf_(release|reset|init|v?add\w*|setlen|grow|detach|trim\w*)$|_(free|release)$/;

/**
 * C library functions that change only what their first argument points at (the destination); the
 * other arguments are read (`memset(&hdr, 0, size)` leaves size as it was).
 */
export const C_FIRST_ARGUMENT_FILLERS =
  /^(memset|memcpy|memmove|bzero|strcpy|strncpy|stpcpy|stpncpy|strcat|strncat|strlcpy|strlcat|v?sn?printf)$/;

/** The words that say a call prints, logs, flushes, reads, writes, closes or leaves (`write`, `log`, `die`). */
const IO_WORDS =
  'write|writev|print|printf|printk|printw|puts|putc|putchar|send|flush|fsync|sync|log|emit|out|dump|close|exit|die|abort|error|warn|warning|bug|debug|report|seek|lseek|read|recv|pread|pwrite|fprintf|dprintf|perror|trace|panic';

/** A name that holds an I/O word anywhere: names that do not are never I/O, and most names do not. */
const HOLDS_IO_WORD = new RegExp(`${IO_WORDS}|err`, 'i');

/**
 * A word that begins with an I/O word, after one of the C library's own short prefixes (`fwrite`,
 * `vsnprintf`, `syslog`, `xread`, `gzwrite`, `pwrite`, `lseek`, `atexit`, `fdatasync`).
 */
const STARTS_IO = new RegExp(`^(?:v?(?:f|d|s|sn|sys)|x|gz|bz|p|l|ll|at|fdata)?(?:${IO_WORDS})`);

/**
 * A word that ends with an I/O word glued to a project's prefix (`condlog`, `mustsend`, `hexdump`,
 * `tprintf`, `sockerror`), with an ending such a function often carries (`writen`, `warnx`,
 * `logf`, `sendto`).
 */
const ENDS_IO = new RegExp(`(?:${IO_WORDS})(?:f|x|n|ln|s|v|to|from|msg|all|full|line|\\d+)?$`);

/** English words that begin with an I/O word and say nothing of I/O (`ready`, `logical`, `closest`). */
const STARTS_OTHER_WORD = /^(?:logic|ready|readonly|readab|closest|synchron|printab|outer|outside|dumpab)/;

/**
 * English words that end with an I/O word and say nothing of I/O: `pthread` holds "read", `timeout`
 * "out", `async` "sync", `dialog` "log", `fingerprint` "print".
 */
const ENDS_OTHER_WORD =
  /(?:thread|spread|timeout|layout|about|without|throughout|checkout|lockout|rollout|dropout|fallout|catalog|dialog|analog|prolog|epilog|backlog|async|enclose|disclose|fingerprint|footprint|blueprint|imprint|isprint|iswprint|input)s?$/;

/** True when one word of a name, lower-cased, reads as I/O. */
function ioWord(word: string): boolean {
  return (
    (STARTS_IO.test(word) && !STARTS_OTHER_WORD.test(word)) ||
    (ENDS_IO.test(word) && !ENDS_OTHER_WORD.test(word))
  );
}

/**
 * True when a function's name says it may do I/O or leave the function (printing, logging, flushing,
 * dying). A write sequence never crosses a call of one that has no body to read: moving a write past
 * it could reorder output. Read word by word (snake_case and camelCase parts), so `print_header`,
 * `logLine`, `condlog` and `vfprintf` read as I/O, while a word that merely holds an I/O word does
 * not: `pthread_mutex_lock` ("read"), `set_timeout` ("out"), `route_add`, `WEXITSTATUS`. The BSD
 * `err` family prints and exits.
 */
export function ioName(name: string): boolean {
  if (!HOLDS_IO_WORD.test(name)) return false;
  if (/^v?errx?$/.test(name)) return true;
  return name
    .split(/_+|(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/)
    .some((word) => word !== '' && ioWord(word.toLowerCase()));
}

/**
 * Words that say a function computes a checksum or a digest (`crc32`, `calc_crc`, `ip_csum`,
 * `SHA256_Update`, `hash_string`): where no body is in the tree (a library such as zlib), such a call
 * is taken to do no output, unless the name also reads as I/O (`dump_hash`).
 */
const DIGEST_WORDS: ReadonlySet<string> = new Set(
  (
    'crc crc8 crc16 crc32 crc32c crc64 adler adler32 csum checksum cksum fletcher fletcher16 fletcher32 ' +
    'hash digest md5 sha sha1 sha224 sha256 sha384 sha512 murmur murmur3 murmurhash fnv fnv1 fnv1a ' +
    'xxh32 xxh64 xxhash siphash'
  ).split(' '),
);

/** True when one of the name's words (snake_case or camelCase) is a checksum or digest word. */
export function digestName(name: string): boolean {
  return name.split(/_|(?<=[a-z0-9])(?=[A-Z])/).some((word) => DIGEST_WORDS.has(word.toLowerCase()));
}

/** The words a descriptor accessor's name ends with: what it hands back. */
const DESCRIPTOR_WORDS: ReadonlySet<string> = new Set(['fd', 'fileno', 'sock', 'sockfd', 'socket']);

/** Words that make a function named for a descriptor do something to get it (open, dup, accept...). */
const DESCRIPTOR_EFFECT_WORDS: ReadonlySet<string> = new Set(
  (
    'open reopen close dup dup2 alloc create new make accept connect bind listen set pass recv send ' +
    'steal take release free init setup next add del remove register acquire install lock unlock'
  ).split(' '),
);

/**
 * True when the name reads as an accessor that hands back a descriptor it holds (`image_fd(img)`,
 * `conn_fd(c)`, `getSocket`, `XYsocket`): a call of it reads, so a write may name its descriptor through it and two
 * writes through the same call name the same descriptor. A name that also says how it gets one
 * (`open_fd`, `accept_socket`, `next_fd`) is no accessor.
 */
export function descriptorAccessor(name: string): boolean {
  const words = name
    // A library's prefix in capitals runs into the word after it (`XYsocket`): a word of its own.
    .replace(/^([A-Z]{2,})(?=[a-z])/, '$1_')
    .split(/_|(?<=[a-z0-9])(?=[A-Z])/)
    .map((w) => w.toLowerCase())
    .filter((w) => w !== '');
  const last = words[words.length - 1];
  // A bare `socket` or `fd` is the system call or a variable's name, not an accessor.
  return (
    words.length >= 2 &&
    last !== undefined &&
    DESCRIPTOR_WORDS.has(last) &&
    !words.some((w) => DESCRIPTOR_EFFECT_WORDS.has(w)) &&
    !ioName(name)
  );
}

/** A TS/JS function that writes: a module export (qualified `module.name`) with argument positions. */
export interface TsWriteFunction {
  /** `fs.writeSync`, `runtime.writevInFull`, or a user name (matched by spelling). */
  readonly qualified: string;
  readonly fd: number;
  readonly buf: number;
  /** Takes an array of buffers already. */
  readonly gathered?: boolean;
  /** The gathered function a sequence of these becomes, and where it comes from. */
  readonly gatheredName?: string;
  /** The call must be awaited to be a complete statement (promise-returning twins). */
  readonly async?: boolean;
}

/** Module specifiers, normalised: `node:fs` and `fs` are one module. */
export const TS_MODULES: Readonly<Record<string, string>> = {
  fs: 'fs',
  'node:fs': 'fs',
  'fs/promises': 'fs/promises',
  'node:fs/promises': 'fs/promises',
  net: 'net',
  'node:net': 'net',
  stream: 'stream',
  'node:stream': 'stream',
  tls: 'tls',
  'node:tls': 'tls',
  http: 'http',
  'node:http': 'http',
  https: 'https',
  'node:https': 'https',
  '@writev/runtime': 'runtime',
};

/** The module the TS fixes import the gathered functions from. */
export const RUNTIME_MODULE = '@writev/runtime';

/** The TS/JS write functions known by default. */
export const TS_WRITE_FUNCTIONS: readonly TsWriteFunction[] = [
  { qualified: 'fs.writeSync', fd: 0, buf: 1, gatheredName: 'writevInFull' },
  { qualified: 'runtime.xwrite', fd: 0, buf: 1, gatheredName: 'xwritev' },
  { qualified: 'runtime.writeInFull', fd: 0, buf: 1, gatheredName: 'writevInFull' },
  { qualified: 'runtime.writeOrDie', fd: 0, buf: 1, gatheredName: 'writevOrDie' },
  { qualified: 'runtime.xwritev', fd: 0, buf: 1, gathered: true, gatheredName: 'xwritev' },
  { qualified: 'runtime.writevInFull', fd: 0, buf: 1, gathered: true, gatheredName: 'writevInFull' },
  { qualified: 'runtime.writevOrDie', fd: 0, buf: 1, gathered: true, gatheredName: 'writevOrDie' },
  { qualified: 'runtime.writeInFullAsync', fd: 0, buf: 1, async: true, gatheredName: 'writevInFullAsync' },
  { qualified: 'runtime.writeOrDieAsync', fd: 0, buf: 1, async: true, gatheredName: 'writevOrDieAsync' },
  {
    qualified: 'runtime.writevInFullAsync',
    fd: 0,
    buf: 1,
    gathered: true,
    async: true,
    gatheredName: 'writevInFullAsync',
  },
];

/** Calls whose result is a `FileHandle` (its `write` becomes `writev`). */
export const TS_FILE_HANDLE_FACTORIES: ReadonlySet<string> = new Set([
  'fs/promises.open',
  'fs.promises.open',
]);

/** Calls whose result is a Writable stream (its adjacent `write`s can be corked). */
export const TS_STREAM_FACTORIES: ReadonlySet<string> = new Set([
  'fs.createWriteStream',
  'net.connect',
  'net.createConnection',
  'tls.connect',
  'stream.PassThrough',
  'stream.Writable',
]);

/** Type names that mark a parameter or variable as a Writable stream. */
export const TS_STREAM_TYPES: ReadonlySet<string> = new Set([
  'Writable',
  'WriteStream',
  'Socket',
  'NodeJS.WritableStream',
  'Duplex',
  'PassThrough',
  'Transform',
  'TLSSocket',
  // HTTP messages are Writables with cork/uncork (a corked chunked response sends one chunk).
  'ServerResponse',
  'OutgoingMessage',
  'ClientRequest',
]);

/**
 * The modules a stream type name must come from: `Socket` imported from 'dgram' (datagrams) or from a
 * WebSocket library (messages) is no byte stream.
 */
export const TS_STREAM_TYPE_MODULES: ReadonlySet<string> = new Set([
  'stream',
  'net',
  'tls',
  'fs',
  'http',
  'https',
]);

/** Members of Node types that hold the connection's socket (`res.socket.write(...)`). */
export const TS_STREAM_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  ServerResponse: ['socket', 'connection'],
  OutgoingMessage: ['socket', 'connection'],
  ClientRequest: ['socket', 'connection'],
  IncomingMessage: ['socket', 'connection'],
};
/** Type names that mark a parameter or variable as a `FileHandle` (its `write` becomes `writev`). */
export const TS_FILE_HANDLE_TYPES: ReadonlySet<string> = new Set(['FileHandle', 'fsp.FileHandle']);

/** Method names that only compute (`buf.subarray(0, 2)`), wherever they are called. */
export const TS_PURE_METHODS: ReadonlySet<string> = new Set([
  'subarray',
  'slice',
  'toString',
  'padStart',
  'padEnd',
  'repeat',
  'join',
  'trim',
]);

/** TS/JS functions that only compute: allowed inside a loop that writes. */
export const TS_PURE_FUNCTIONS: ReadonlySet<string> = new Set([
  'Buffer.from',
  'Buffer.byteLength',
  'Buffer.alloc',
  'Buffer.concat',
  'Math.min',
  'Math.max',
  'String',
  'Number',
]);

/** The catalogue's functions of one language by key, then the user's own, which replace a same-named one. */
function inEffect<F>(
  catalogue: readonly (readonly [string, F])[],
  settings: AnalyzerSettings,
  language: WriteFunctionSetting['language'],
  fromSetting: (fn: WriteFunctionSetting) => F,
): Map<string, F> {
  const functions = new Map(catalogue);
  for (const fn of settings.writeFunctions)
    if (fn.language === language) functions.set(fn.name, fromSetting(fn));
  return functions;
}

/**
 * The C write functions in effect, by name: the catalogue, then the presets the settings name, then
 * `writev.writeFunctions` of language "c" (a later one replaces a same-named earlier one).
 */
export function cWriteFunctions(settings: AnalyzerSettings): Map<string, CWriteFunction> {
  const catalogue = [
    ...C_WRITE_FUNCTIONS,
    ...presetsOf(settings.presets).flatMap((p) => p.writeFunctions ?? []),
  ].map((fn) => [fn.name, fn] as const);
  return inEffect(catalogue, settings, 'c', ({ name, fd, buf, len, gatheredName }) => ({
    name,
    fd,
    buf,
    len,
    gatheredName,
  }));
}

/**
 * The built-in catalogue's names that a project's own definition in another file replaces for the
 * whole tree (Git's helper names, which other projects reuse for helpers of their own); the library's
 * functions are replaced only in the file that defines them, and the presets' and the user's entries
 * never (the user chose them for the project).
 */
export const C_TREE_OVERRIDABLE: ReadonlySet<string> = new Set(
  C_WRITE_FUNCTIONS.filter((fn) => !fn.library).map((fn) => fn.name),
);

/**
 * {@link cWriteFunctions} for code that defines some of those names itself (`defined`: a function with
 * a body in the file, or elsewhere in the tree): the project's own `xwrite(int fd, const char *s)` is
 * not Git's, and its body, not the catalogue, says whether and how a call writes (and which gathered
 * function exists to call instead). A name the user's `writev.writeFunctions` lists stays: the user
 * said what it is. Does not modify what `cWriteFunctions` returns to other callers.
 */
export function cWriteFunctionsFor(
  settings: AnalyzerSettings,
  defined: ReadonlySet<string>,
): Map<string, CWriteFunction> {
  const functions = cWriteFunctions(settings);
  if (defined.size === 0) return functions;
  const chosen = new Set([
    ...presetsOf(settings.presets).flatMap((p) => (p.writeFunctions ?? []).map((fn) => fn.name)),
    ...settings.writeFunctions.filter((fn) => fn.language === 'c').map((fn) => fn.name),
  ]);
  for (const name of defined) if (!chosen.has(name)) functions.delete(name);
  return functions;
}

/** The TS/JS write functions in effect, by qualified name: the catalogue plus the user's "ts" ones. */
export function tsWriteFunctions(settings: AnalyzerSettings): Map<string, TsWriteFunction> {
  const catalogue = TS_WRITE_FUNCTIONS.map((fn) => [fn.qualified, fn] as const);
  return inEffect(catalogue, settings, 'ts', (fn) => ({
    qualified: fn.name,
    fd: fn.fd,
    buf: fn.buf,
    gatheredName: fn.gatheredName,
  }));
}

/** The pure C functions in effect, by the presets named (one set per combination, kept). */
const pureByPresets = new Map<string, ReadonlySet<string>>();

/** The C functions that only compute in effect: {@link C_PURE_FUNCTIONS} and the named presets' own. */
export function cPureFunctions(settings: AnalyzerSettings): ReadonlySet<string> {
  if (settings.presets.length === 0) return C_PURE_FUNCTIONS;
  const key = settings.presets.join(',');
  let pure = pureByPresets.get(key);
  if (!pure) {
    pure = new Set([...C_PURE_FUNCTIONS, ...presetsOf(settings.presets).flatMap((p) => p.pure ?? [])]);
    pureByPresets.set(key, pure);
  }
  return pure;
}

/**
 * Whether a C function does no output, in effect: it matches {@link C_QUIET_FUNCTIONS}, or a named
 * preset lists it as quiet.
 */
export function cQuietFunction(settings: AnalyzerSettings): (name: string) => boolean {
  const own = new Set(presetsOf(settings.presets).flatMap((p) => p.quiet ?? []));
  return own.size === 0
    ? (name) => C_QUIET_FUNCTIONS.test(name)
    : (name) => own.has(name) || C_QUIET_FUNCTIONS.test(name);
}

/** The C and TS wrappers the settings give: the named presets' first, then `writev.wrappers`. */
export function settingWrappers(settings: AnalyzerSettings): readonly WrapperSetting[] {
  if (settings.presets.length === 0) return settings.wrappers;
  return [...presetsOf(settings.presets).flatMap((p) => p.wrappers ?? []), ...settings.wrappers];
}

/**
 * The message-catalogue lookups of GNU gettext and the manual's conventional macros for them (`_`,
 * `N_`, `P_`): each returns the text to print for a literal, printing nothing (see
 * c/translatedText.ts).
 */
export const MESSAGE_CATALOGUE: ReadonlySet<string> = new Set([
  '_',
  'N_',
  'P_',
  'gettext',
  'dgettext',
  'dcgettext',
  'ngettext',
  'dngettext',
  'dcngettext',
  'pgettext',
]);

/**
 * C library functions and macros that do no output and have no body in a project's tree: character
 * classes, numbers, time, memory layout. With C_QUIET_FUNCTIONS and C_PURE_FUNCTIONS, the standard
 * library's part of the fact base (see c/functionFacts.ts); a project's own functions are judged by
 * their bodies.
 */
export const C_LIBRARY_QUIET: ReadonlySet<string> = new Set([
  ...CHARACTER_CLASSES,
  'abs',
  'labs',
  'llabs',
  'atoi',
  'atol',
  'atoll',
  'assert',
  'offsetof',
  'container_of',
  'clock_gettime',
  'gettimeofday',
  'rand',
  'random',
  'srand',
  'srandom',
  'ffs',
  'ffsl',
  'qsort',
  'bsearch',
  'be16toh',
  'getuid',
  'geteuid',
  'getgid',
  'getegid',
  'getppid',
  // Broken-down time and its conversions (the `str*` ones, `strftime` among them, are quiet by name).
  'localtime',
  'localtime_r',
  'gmtime',
  'gmtime_r',
  'mktime',
  'timegm',
  'difftime',
  'ctime',
  'ctime_r',
  'asctime',
  'asctime_r',
  // The host's and a socket's own description: queries that change nothing and send nothing.
  'gethostname',
  'uname',
  'sysconf',
  'getsockname',
  'getpeername',
  'getsockopt',
  // Patterns matched in memory, and error codes turned into text.
  'regcomp',
  'regexec',
  'regerror',
  'regfree',
  'fnmatch',
  'gai_strerror',
  // Addresses to text and back.
  'inet_ntop',
  'inet_pton',
  'inet_ntoa',
  'inet_aton',
  'inet_addr',
  // Signal sets, environment, the page size: memory and process state only.
  'sigemptyset',
  'sigfillset',
  'sigaddset',
  'sigdelset',
  'sigismember',
  'getenv',
  'secure_getenv',
  'getpagesize',
  'isatty',
  'reallocarray',
  'posix_memalign',
  'aligned_alloc',
]);

/**
 * C library functions whose names do not say I/O but that wait, read, change the process or a
 * descriptor, or keep hidden state (`fgets`, `poll`, `system`, `fork`, `ioctl`, `strtok`), and names
 * that read as I/O ({@link ioName}): never taken to do no output when no body is read.
 */
const C_LIBRARY_EFFECTS =
  /^(f?gets|getline|getdelim|f?getc|getchar|v?f?scanf|system|popen|pclose|v?fork|exec\w*|p?poll|p?select|epoll_\w+|sleep|usleep|nanosleep|wait\w*|kill|raise|signal|sigaction|sigprocmask|alarm|pause|ioctl|fcntl|open\w*|creat|socket\w*|connect|accept4?|bind|listen|shutdown|dup[23]?|pipe2?|mmap|munmap|mprotect|getpass|readline|tc\w+|cf\w+|chdir|fchdir|chmod|fchmod|chown|fchown|unlink\w*|rename\w*|mkdir\w*|rmdir|truncate|ftruncate|setenv|putenv|unsetenv|strtok|longjmp|setjmp|fopen|fdopen|freopen|fclose|fflush|fseek\w*|rewind|ftell\w*|setvbuf|setbuf|ungetc|tmpfile|atexit|abort|exit|_exit|assert)$/;

/**
 * C library functions that wait (for time to pass, output to drain, a signal, a child, a descriptor):
 * a program that waits between two writes splits them on purpose (a device's pacing, a test of a
 * peer's timeout), even on a descriptor no other code writes to. A change of a terminal's settings
 * (`tcsetattr`, `tcflush`, `tcflow`, `tcsendbreak`) splits them as surely: the terminal reads the bytes
 * written before and after under different modes (echo, raw, line editing), and the descriptor it names
 * (`pty`) may be another name of the written one (`xpty`).
 */
const C_LIBRARY_WAITS =
  /^(sleep|usleep|nanosleep|clock_nanosleep|tcdrain|tcsetattr|tcflush|tcflow|tcsendbreak|pause|sched_yield|p?poll|p?select|epoll_p?wait|sigsuspend|sigwait\w*|sigtimedwait|wait|waitpid|waitid|wait3|wait4)$/;

/**
 * The `ioctl()` requests that change a terminal's settings, as the functions of C_LIBRARY_WAITS do
 * (those functions make these requests): the termios settings (Linux's `TCSETS*`, `TCSETS*2`, System
 * V's `TCSETA*`, the BSDs' `TIOCSETA*`), the old sgtty modes, special characters and local mode word
 * (`TIOCSETP`, `TIOCSETN`, `TIOCSETC`, `TIOCSLTC`, `TIOCLSET`, `TIOCLBIS`, `TIOCLBIC`), the line
 * discipline (`TIOCSETD`), a flush (`TCFLSH`, `TIOCFLUSH`), flow control (`TCXONC`, `TIOCSTOP`,
 * `TIOCSTART`) and breaks (`TCSBRK`, which tcdrain() also makes, `TCSBRKP`, `TIOCSBRK`, `TIOCCBRK`).
 * Other requests (`FIONREAD`, `FIONBIO`, `TIOCGWINSZ`) read or set what the bytes written do not depend on.
 */
const C_TERMINAL_REQUESTS =
  /^(TCSETS[WF]?2?|TCSETA[WF]?|TIOCSETA[WF]?|TIOCSET[PNCD]|TIOCSLTC|TIOCL(?:SET|BIS|BIC)|TCFLSH|TIOCFLUSH|TCXONC|TIOCSTOP|TIOCSTART|TCSBRKP?|TIOC[SC]BRK)$/;

/** True when `name` is an `ioctl()` request that changes a terminal's settings (see {@link C_TERMINAL_REQUESTS}). */
export function terminalRequest(name: string): boolean {
  return C_TERMINAL_REQUESTS.test(name);
}

/** True when `name` is a library function that waits (see {@link C_LIBRARY_WAITS}). */
export function libraryWaits(name: string): boolean {
  return C_LIBRARY_WAITS.test(name);
}

/** True when a function with no body in the code read is known, by name, to do more than compute. */
export function knownEffects(name: string): boolean {
  return C_LIBRARY_EFFECTS.test(name) || ioName(name);
}
