// Write helpers known only from how they are called. A project's own `writen(fd, buf, n)` or
// `fd_printf(fd, "...")` is often defined where the analyzer cannot read it: a library the project
// links, a header of another tree, a file the user has not opened. Its calls still say what it does:
// a name that says it writes or sends, and a first argument that is a descriptor (`1`, `STDOUT_FILENO`,
// a name or member ending in `fd` or `sock`). Such calls are read as writes of their arguments to that
// descriptor, with the assumption said in the finding and no fix (the helper's error contract and
// whether it loops over short writes are unknown). Where the tree holds the body, the body decides:
// a name defined anywhere the analyzer reads is never inferred.
import type { CWrapper } from '../wrapper';
import { declaredHandle } from './handleTypes';
import { changedLines } from './textChanges';

/**
 * A word of a helper's name that says it writes its arguments out: `puts`, `print`, `printf`, or a
 * word holding `write` or `send` after a short prefix and before a short suffix (a retry, a loop, a
 * count: the many spellings of one helper).
 */
function writerWord(w: string): boolean {
  if (w === 'puts' || w === 'print' || w === 'printf') return true;
  for (const verb of ['write', 'send']) {
    const at = w.indexOf(verb);
    const rest = at >= 0 ? w.slice(at + verb.length) : '';
    // `readwrite`, `recvsend`: a pump that reads as much as it writes, no write of its arguments.
    const reads = /^(?:read|recv)$/.test(w.slice(0, at));
    if (at >= 0 && at <= 4 && rest.length <= 5 && !NOT_A_WRITE.has(rest) && !reads) return true;
  }
  return false;
}

/** What a verb's word may end in that says it is no plain write (`writev`, `sendfd`, `sendto`). */
const NOT_A_WRITE: ReadonlySet<string> = new Set([
  'v',
  'fd',
  'fds',
  'to',
  'msg',
  'mmsg',
  'file',
  'er',
  'ers',
  'able',
]);

/**
 * Words that say the helper does more than write (`x_and_y`), or something else: reads, closes, formats into
 * memory, queues for later, or passes descriptors or credentials (each such send is one message).
 */
const OTHER_WORDS: ReadonlySet<string> = new Set(
  (
    'read recv close open seek lseek flush sync fsync lock unlock wait poll select accept connect bind ' +
    'listen sendfile splice iov iovec writev sendmsg msg to buf buffer str strbuf sds mem fifo queue ' +
    'ring cache sn s v va async later delayed nb nonblock cmsg ancillary and then once ' +
    'rewrite overwrite writeback init setup create free destroy files at pos offset'
  ).split(' '),
);

/**
 * A word that says a helper may take a path (`write_file(path, text)`, which opens, writes and
 * closes): read as a write only where its calls give it a descriptor, a buffer and a count.
 */
const FILE_WORD = 'file';

/** A descriptor name's last word (after its last `_`) that says it holds one (`outfd`, `clisock`). */
const DESCRIPTOR_WORD = /^(?:[a-z]*fd|fileno|[a-z]*sock|sockfd|socket|sck|sd)$/i;

/**
 * A fourth argument a helper may take beside the descriptor, the buffer and the count without
 * changing where the bytes go (a timeout, flags): anything but a position (`pwrite`'s offset).
 */
const POSITION = /off|pos|seek|addr|where/i;

/** Standard descriptors spelled as numbers or by their POSIX names. */
const STANDARD = /^(?:1|2|STDOUT_FILENO|STDERR_FILENO)$/;

/** The C library's formatted writes to a descriptor: no body anywhere, and no catalogue entry (no fix). */
const LIBRARY_FORMATTED: ReadonlySet<string> = new Set(['dprintf', 'vdprintf']);

/**
 * True when `arg`, a call's argument, names a write function passed to the callee (`vwrite`, `write`,
 * `send`): one word, a writer word (`write_cb` and `writer` are something else).
 */
export function writerMode(arg: string): boolean {
  const t = arg.trim();
  return /^[A-Za-z]\w*$/.test(t) && !t.includes('_') && words(t).length === 1 && writerWord(t.toLowerCase());
}

/** The words of an identifier: snake_case and camelCase parts, lower-cased. */
function words(name: string): string[] {
  return name
    .split(/_|(?<=[a-z0-9])(?=[A-Z])/)
    .map((w) => w.toLowerCase())
    .filter((w) => w !== '');
}

/** True when `name` reads as a helper that writes its arguments (`writen`, `fd_printf`, `sendall`). */
export function writerName(name: string): boolean {
  if (LIBRARY_FORMATTED.has(name)) return true;
  const ws = words(name);
  const verb = ws.findIndex(writerWord);
  // What follows the verb is what it sends: `send_fd`, `write_creds` pass descriptors or credentials,
  // `write_buf` and `send_str` the bytes of a buffer or a string (while `buf_write` writes into one).
  return (
    verb >= 0 &&
    !ws.some((w, i) => otherWord(w) && !(i > verb && (SENT.has(w) || toDescriptor(ws, i)))) &&
    // (`write_to_fd` names where the bytes go, not what is passed.)
    !ws.slice(verb + 1).some((w, k) => PASSED.has(w) && ws[verb + k] !== 'to')
  );
}

/** Objects of a write that name the bytes it sends, not where they go: `write_buf`, `send_string`. */
const SENT: ReadonlySet<string> = new Set(['buf', 'buffer', 'str', 'string']);

/**
 * True when `ws[i]` is a `to` that names a descriptor as where the bytes go (`write_to_fd`,
 * `send_to_socket`, `write_to_descriptor`), not an address (`send_to`, `sendto`) or many peers
 * (`send_to_all`).
 */
function toDescriptor(ws: readonly string[], i: number): boolean {
  return ws[i] === 'to' && i + 1 < ws.length && TO_DESCRIPTOR.test(ws[i + 1]!);
}

/** Words after `to` that name one descriptor. */
const TO_DESCRIPTOR = /^(?:fd|sock|socket|descriptor|pipe|stdout|stderr|tty|terminal)$/;

/**
 * A word of {@link OTHER_WORDS}, alone or run together with the descriptor it acts on (`waitfd` in
 * `x_waitfd_write`: a wait until the descriptor is writable, which writes nothing).
 */
function otherWord(w: string): boolean {
  return OTHER_WORDS.has(w) || OTHER_WORDS.has(w.replace(/(?:fd|fds|sock)$/, ''));
}

/** Objects of a send that make it a message of its own (ancillary data): `send_fds`, `write_cred`. */
const PASSED: ReadonlySet<string> = new Set([
  'fd',
  'fds',
  'cred',
  'creds',
  'rights',
  'descriptor',
  'descriptors',
]);

/** Calls whose first argument is a descriptor, whatever it is named. */
const TAKES_DESCRIPTOR =
  /\b(?:write|writev|pwrite|send|sendmsg|read|readv|pread|recv|recvmsg|close|shutdown|dup2?|dup3|fcntl|fstat|fsync|fdatasync|ftruncate|lseek|ioctl|setsockopt|getsockopt|getpeername|getsockname|listen|fchmod|fchown)\s*\(\s*([^,()]+?)\s*[,)]/g;

/** Calls whose result is a descriptor (`fd = accept(...)`). */
const GIVES_DESCRIPTOR =
  /\b(?:accept4?|socket|open|openat|creat|dup2?|dup3|eventfd|signalfd|timerfd_create|memfd_create|epoll_create1?|inotify_init1?)\s*\(/g;

/** What the call that ends `before` is assigned to (`conn->fd = ` before `accept(`). */
const ASSIGNED = /([A-Za-z_][\w.>-]*)\s*=\s*$/;

/** Arrays `pipe()` and `socketpair()` fill with two descriptors. */
const PAIRS = /\b(?:pipe2?\s*\(\s*([A-Za-z_][\w.>-]*)|socketpair\s*\([^;]*?,\s*([A-Za-z_][\w.>-]*)\s*\))/g;

/**
 * The descriptors `text` shows whatever they are named: the first argument of calls that take one
 * (`close(ns)`), what calls that make one are assigned to (`s = accept(...)`), and the elements of
 * arrays `pipe()` fills (`pipes[1]`). Canonical text: no whitespace.
 */
export function shownDescriptors(text: string): Set<string> {
  const found = new Set<string>();
  const add = (t: string | undefined) => t && found.add(t.replace(/\s+/g, '').replace(/^&/, ''));
  for (const m of text.matchAll(TAKES_DESCRIPTOR)) add(m[1]);
  for (const m of text.matchAll(GIVES_DESCRIPTOR))
    add(ASSIGNED.exec(text.slice(Math.max(0, m.index - 60), m.index))?.[1]);
  for (const m of text.matchAll(PAIRS)) {
    const array = (m[1] ?? m[2])!.replace(/\s+/g, '');
    found.add(`${array}[0]`);
    found.add(`${array}[1]`);
  }
  return found;
}

/**
 * True when the argument text names a descriptor: a standard one, one of `macros` (the file's names
 * for the standard ones), one the file shows (`shown`), or a variable or member whose last name ends
 * in `fd`, `sock`, `socket`.
 */
export function descriptorArgument(
  arg: string,
  macros: ReadonlyMap<string, string>,
  shown: ReadonlySet<string> = new Set(),
): boolean {
  const t = arg.replace(/\s+/g, '');
  if (STANDARD.test(t) || macros.has(t) || shown.has(t)) return true;
  const last = /^[A-Za-z_]\w*(?:(?:\.|->)[A-Za-z_]\w*)*$/.test(t) ? /\w+$/.exec(t)?.[0] : undefined;
  return last !== undefined && DESCRIPTOR_WORD.test(last.slice(last.lastIndexOf('_') + 1));
}

/** The top-level arguments of the call whose `(` is at `open`, as text; undefined when cut short. */
export function argumentsAt(text: string, open: number): string[] | undefined {
  const args: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open + 1; i < text.length && i < open + 2000; i++) {
    const c = text[i];
    if (c === '"' || c === "'") {
      // A literal: its brackets and commas are text (escapes included).
      for (i++; i < text.length && text[i] !== c && text[i] !== '\n'; i++) if (text[i] === '\\') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) return undefined;
      i = end + 1;
    } else if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      if (end < 0) return undefined;
      i = end;
    } else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      if (depth === 0) {
        args.push(text.slice(start, i).trim());
        return args;
      }
      depth--;
    } else if (c === ',' && depth === 0) {
      args.push(text.slice(start, i).trim());
      start = i + 1;
    } else if (c === ';') return undefined;
  }
  return undefined;
}

/** Where a writer word may stand in a name: the first look, a search for literals. */
const VERB = /[wW]rite|[sS]end|puts|[pP]rint|WRITE|SEND|PUTS|PRINT/g;

/**
 * The C library's output functions that take no descriptor (stdio, syslog) or that the catalogue
 * reads itself: never a helper of the program's.
 */
const LIBRARY_OUTPUT: ReadonlySet<string> = new Set(
  (
    'printf fprintf sprintf snprintf vprintf vfprintf vsprintf vsnprintf asprintf vasprintf puts fputs ' +
    'fwrite fwrite_unlocked fputs_unlocked putchar wprintf fwprintf swprintf vwprintf vfwprintf ' +
    'vswprintf syslog vsyslog send sendto sendmsg sendmmsg sendfile write writev pwrite pwritev pwritev2'
  ).split(' '),
);

/** {@link writerName}'s answers so far, bounded (a long editing session keeps asking new names). */
const writerAnswers = new Map<string, boolean>();

function writerNameOnce(name: string): boolean {
  let answer = writerAnswers.get(name);
  if (answer === undefined) {
    answer = !LIBRARY_OUTPUT.has(name) && writerName(name);
    if (writerAnswers.size >= 1 << 14) writerAnswers.clear();
    writerAnswers.set(name, answer);
  }
  return answer;
}

function isWord(code: number): boolean {
  return (
    (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95
  );
}

/** A call of a name holding a writer word: the name, where it starts, and where its `(` stands. */
interface VerbCall {
  readonly name: string;
  readonly start: number;
  readonly open: number;
}

/**
 * The calls of names holding a writer word ({@link VERB}) on the lines from `from` to `to`: a name
 * and the blanks before its `(` never leave their line, and no match of the search does, so what a
 * line holds is found from that line alone.
 */
function verbCalls(text: string, from: number, to: number): VerbCall[] {
  const found: VerbCall[] = [];
  VERB.lastIndex = from;
  for (let m = VERB.exec(text); m && m.index < to; m = VERB.exec(text)) {
    let start = m.index;
    while (start > 0 && isWord(text.charCodeAt(start - 1))) start--;
    let end = m.index + m[0].length;
    while (end < text.length && isWord(text.charCodeAt(end))) end++;
    let k = end;
    while (text[k] === ' ' || text[k] === '\t') k++;
    if (text[k] === '(') found.push({ name: text.slice(start, end), start, open: k });
    // Past the name: a name holding two writer words (`send_write`) is one call.
    VERB.lastIndex = Math.max(VERB.lastIndex, end);
  }
  return found;
}

/**
 * The calls of the text searched last, for the next version of it: an edited document's analysis
 * searched the whole text again at every keystroke. Only the changed lines are searched again (see
 * {@link verbCalls}); the calls on the lines after them move with the change of length.
 */
let lastCalls: { readonly text: string; readonly calls: readonly VerbCall[] } | undefined;

/** {@link verbCalls} of the whole `text`, from those of the text searched before where it can. */
function allVerbCalls(text: string): readonly VerbCall[] {
  const last = lastCalls;
  if (last?.text === text) return last.calls;
  const change = last && changedLines(last.text, text);
  let calls: VerbCall[];
  if (!last || !change) calls = verbCalls(text, 0, text.length);
  else {
    const { start, beforeEnd, afterEnd } = change;
    const delta = afterEnd - beforeEnd;
    calls = last.calls.filter((c) => c.start < start);
    calls.push(...verbCalls(text, start, afterEnd));
    for (const c of last.calls)
      if (c.start > beforeEnd) calls.push({ name: c.name, start: c.start + delta, open: c.open + delta });
  }
  lastCalls = { text, calls };
  return calls;
}

/**
 * The names called in `text` that hold a writer word and read as writers (see {@link writerName}),
 * each with where its calls start (the name) and their `(`.
 */
function candidates(text: string, known: (name: string) => boolean): Map<string, [number, number][]> {
  const found = new Map<string, [number, number][]>();
  const rejected = new Set<string>();
  for (const { name, start, open } of allVerbCalls(text)) {
    if (rejected.has(name)) continue;
    const calls = found.get(name);
    if (calls) calls.push([start, open]);
    else if (writerNameOnce(name) && !known(name)) found.set(name, [[start, open]]);
    else rejected.add(name);
  }
  return found;
}

/**
 * The helpers `text` calls as writers (see the file comment) that `known` does not answer for: names
 * defined in the tree, macros, the catalogue's functions and wrappers. `macrosOf`: the file's names
 * for the standard descriptors.
 */
export function callSiteWriters(
  text: string,
  known: (name: string) => boolean,
  macrosOf: () => ReadonlyMap<string, string>,
): CWrapper[] {
  const names = candidates(text, known);
  if (names.size === 0) return modeHelpers(text, known);
  let macros: ReadonlyMap<string, string> | undefined;
  let shown: Set<string> | undefined;
  const pointers = new Map<string, boolean>();
  // Declared in the function the call is in: from the end of the one before (a `}` at a line's start).
  const pointer = (arg: string, at: number) => {
    const start = text.lastIndexOf('\n}', at) + 1;
    const key = `${start} ${arg}`;
    let answer = pointers.get(key);
    if (answer === undefined) {
      const before = text.slice(start, at);
      answer = declaredPointer(before, arg) || declaredHandle(before, arg.trim(), text);
      pointers.set(key, answer);
    }
    return answer;
  };
  // A standard descriptor, a name that says it is one, one of the file's macros, or one it shows.
  const descriptor = (arg: string) =>
    descriptorArgument(arg, new Map()) ||
    descriptorArgument(arg, (macros ??= macrosOf())) ||
    descriptorArgument(arg, macros, (shown ??= shownDescriptors(text)));

  // A function-like macro of the file is read from its body elsewhere (macros.ts), not from its calls.
  for (const m of text.matchAll(/#\s*define\s+(\w+)\(/g)) names.delete(m[1]!);
  const helpers: CWrapper[] = [];
  for (const [name, calls] of names) {
    const onFile = words(name).includes(FILE_WORD);
    let formats = false;
    let length = true;
    let called = false;
    let count: number | undefined;
    for (const [at, open] of calls) {
      // A definition or a declaration (`ssize_t put(int fd, ...)`) is no call: its arguments are types.
      const before = text.slice(Math.max(0, at - 80), at);
      if (/[\w*]\s+\**$/.test(before) && !/\b(?:return|else|case)\s+$/.test(before)) continue;
      // Nor is a name in a comment: the line it is on says so.
      const line = before.slice(before.lastIndexOf('\n') + 1);
      if (/\/\/|\/\*|^\s*\*/.test(line)) continue;
      const args = argumentsAt(text, open);
      // A number that names no standard descriptor (`put_bits(4, v, ...)`) or a name the file declares
      // a pointer (`struct chan *socket`): the first parameter is a count or an object, in every call.
      if (args && ((/^\d+$/.test(args[0]!) && !STANDARD.test(args[0]!)) || pointer(args[0]!, at))) {
        called = false;
        break;
      }
      if (!args || args.length < 2 || !descriptor(args[0]!)) continue;
      // A helper named for files writes to a descriptor where its calls show one by name, then a
      // buffer and a count (`os_write_file(fd, data, n)`); a path or a literal text is no such call.
      if (onFile && !(args.length === 3 && descriptorArgument(args[0]!, new Map()) && !/^"/.test(args[2]!)))
        continue;
      // A call that passes constants only after the descriptor (`i2c_smbus_write_byte_data(fd, 0x26, 4)`)
      // shows a helper that takes no buffer: it sets a register or sends a command, one message each.
      if (args.slice(1).every((a) => NO_BUFFER.test(a.trim()))) {
        called = false;
        break;
      }
      called = true;
      formats ||= /^"(?:[^"\\]|\\.)*%/.test(args[1]!);
      // `(fd, buf, count)` in every call: the third is the count, which a check of the result compares;
      // so with a fourth that is no position (`socksend(sock, buf, n, timeout)`).
      length &&=
        (count === undefined || count === args.length) &&
        (args.length === 3 || (args.length === 4 && !POSITION.test(args[3]!) && !POSITION.test(name)));
      count = args.length;
    }
    if (!called || !takesBuffer(text, name)) continue;
    length &&= !formats;
    helpers.push({
      name,
      exported: false,
      fd: { param: 0 },
      buf: 1,
      ...(length && { len: 2 }),
      family: '',
      arity: length ? (count as number) : 2,
      // A buffer and its count are the bytes written: a buffer changed between two calls cannot be
      // gathered as it is. A formatted text or a buffer with no count stands for what is written.
      formats: !length,
      ...(LIBRARY_FORMATTED.has(name) && { printf: true as const }),
      messages: true,
      noFix: LIBRARY_FORMATTED.has(name)
        ? `${name}() formats its text before writing it, so no iovec can list its bytes`
        : `${name}() is not defined in the code read: taken, from its name and its descriptor argument, to write its other arguments to it${formats ? ' (formatted)' : ''}`,
    });
  }
  helpers.push(...modeHelpers(text, known));
  return helpers;
}

/**
 * True when `arg` is a name `text` (a function up to a call) declares as a pointer (`struct conn
 * *sock`, `chan_t* socket`): an object that holds a descriptor, maybe with a buffer of its own,
 * whatever its name says.
 */
function declaredPointer(text: string, arg: string): boolean {
  const name = arg.trim();
  if (!/^[A-Za-z_]\w*$/.test(name)) return false;
  const { starred, declared } = pointerPatterns(name);
  // The declaration ends `*name` then `,;)=[`: most arguments are declared otherwise (or not in the
  // function), and this look is much cheaper than the declaration's pattern tried at every character.
  return starred.test(text) && declared.test(text);
}

/**
 * The patterns of {@link declaredPointer} for a name, kept: the calls of a tree pass the same few
 * names, and each call made and compiled both patterns anew.
 */
const pointerPatternsKept = new Map<string, { starred: RegExp; declared: RegExp }>();
const POINTER_PATTERNS_KEPT = 1024;

function pointerPatterns(name: string): { starred: RegExp; declared: RegExp } {
  let kept = pointerPatternsKept.get(name);
  if (!kept) {
    if (pointerPatternsKept.size >= POINTER_PATTERNS_KEPT) pointerPatternsKept.clear();
    // A pointer to a number is none: `int *sock` is where a function stores the descriptor it makes.
    const type = String.raw`(?:const\s+)?(?:struct\s+)?(?!(?:int|long|short|unsigned|signed|char)\b)[A-Za-z_]\w*`;
    // Neither is global: `test` keeps no state in them.
    kept = {
      starred: new RegExp(String.raw`\*\s*${name}\s*[,;)=[]`),
      declared: new RegExp(String.raw`(?:^|[(,;{])\s*${type}\s*\*+\s*${name}\s*[,;)=[]`, 'm'),
    };
    pointerPatternsKept.set(name, kept);
  }
  return kept;
}

/** An argument no buffer can be: a number or character constant, or `sizeof`, maybe negated or cast. */
const NO_BUFFER =
  /^(?:\(\s*\w+(?:\s+\w+)*\s*\)\s*)?[-+~]?\s*(?:0x[\da-f]+|\d+|'(?:\\.|[^'\\])+'|sizeof\b.*)[ul]*$/i;

/**
 * False when `text` declares `name` with no parameter after the descriptor that can hold a buffer (no
 * pointer, no array, no `...`): `int i2c_smbus_write_byte_data(int file, __u8 command, __u8 value);`.
 * True where no prototype says so.
 */
function takesBuffer(text: string, name: string): boolean {
  const proto = prototypeOf(text, name);
  if (!proto || /\b(?:return|else|case|goto|do)\b/.test(proto[1]!)) return true;
  const params = proto[2]!.split(',').slice(1);
  return params.length === 0 || params.some((p) => /[*[]|\.\.\./.test(p));
}

/** The characters a prototype's type words, and the white space and stars between them, are made of. */
const TYPE_WORD_CHARACTER = /[\s\w*]/;

/** What ends a line for `^` under the `m` flag. */
const LINE_END = /[\n\r\u2028\u2029]/;

/**
 * The first prototype of `name` in `text`: a line that starts with type words, then the name (a call
 * after `else` or `return` is none), its parameters, `;`. Tried at every line start, the pattern cost
 * each edit of a long file a visible part of its analysis: it is tried only where it can match, before
 * each `name(...);` back to the line where the run of word characters, white space and stars before it
 * starts (a prototype's words may span lines). A match holds no other character, so none starts
 * elsewhere, and each such stretch is read as the whole text reads it.
 */
function prototypeOf(text: string, name: string): RegExpExecArray | null {
  const proto = new RegExp(`^[ \\t]*((?:[A-Za-z_]\\w*[\\s*]+)+)${name}\\s*\\(([^;{}()]*)\\)\\s*;`, 'm');
  const tail = new RegExp(`${name}\\s*\\(([^;{}()]*)\\)\\s*;`, 'y');
  // The stretch being gathered: from the line start before a run of such characters to the end of the
  // last `name(...);` after it.
  let run = -1;
  let from = 0;
  let to = -1;
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
    tail.lastIndex = at;
    if (!tail.test(text)) continue;
    let start = at;
    while (start > 0 && TYPE_WORD_CHARACTER.test(text[start - 1]!)) start--;
    if (start !== run) {
      const found = to >= 0 ? proto.exec(text.slice(from, to)) : null;
      if (found) return found;
      run = start;
      from = start;
      while (from > 0 && !LINE_END.test(text[from - 1]!)) from--;
    }
    to = Math.max(to, tail.lastIndex);
  }
  return to >= 0 ? proto.exec(text.slice(from, to)) : null;
}

/** A call whose first argument is a function: the callee and the argument. */
const FIRST_ARGUMENT = /\b([A-Za-z_]\w*)\s*\(\s*([A-Za-z_]\w*)\s*,/g;

/**
 * Helpers `text` calls with a write function as their first argument, then a descriptor, a buffer and
 * its length (`atomicio(vwrite, fd, buf, n)`): they write with the function they are given, and a call
 * given another one (`atomicio(read, ...)`) is no write (see {@link CWrapper.mode}).
 */
function modeHelpers(text: string, known: (name: string) => boolean): CWrapper[] {
  if (!/\(\s*\w*(?:write|send)\s*,/i.test(text)) return [];
  const found = new Map<string, boolean>();
  for (const m of text.matchAll(FIRST_ARGUMENT)) {
    const [, name, mode] = m as unknown as [string, string, string];
    if (found.get(name) === false || !writerMode(mode)) continue;
    if (LIBRARY_OUTPUT.has(name) || CONTROL.has(name) || known(name)) {
      found.set(name, false);
      continue;
    }
    const args = argumentsAt(text, text.indexOf('(', m.index + name.length));
    // The descriptor, the buffer and the count, as `write()` takes them; nothing else.
    found.set(name, (found.get(name) ?? true) && args?.length === 4);
  }
  return [...found]
    .filter(([, ok]) => ok)
    .map(([name]) => ({
      name,
      exported: false,
      fd: { param: 1 },
      buf: 2,
      len: 3,
      mode: 0,
      family: '',
      arity: 4,
      formats: true,
      // Whether it loops over short writes is unknown: one call may be one message.
      messages: true,
      noFix: `${name}() is not defined in the code read: taken, from the write function it is given, to write its buffer to its descriptor`,
    }));
}

/** Words that look like calls and are not. */
const CONTROL: ReadonlySet<string> = new Set(['if', 'while', 'for', 'switch', 'return', 'sizeof']);
