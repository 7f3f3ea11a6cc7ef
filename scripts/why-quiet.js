#!/usr/bin/env node
// Why the analyzer stays silent where a reader sees writes: a census of the calls that look like
// writes and what the C front end made of each (a development tool; the analyzer's output is
// unchanged). After `npx tsc -b`:
//
//   node scripts/why-quiet.js [--json FILE] [--samples N] [--reason TEXT] PATH...
//
// Each PATH (a tree or a file) is linted as the CLI lints it (both passes, default settings). Then
// every call in its C files that looks like a write to a reader is listed: the write functions of the
// libraries (`write`, `send*`, `fwrite`, `SSL_write`...), any callee whose name holds write, send, put,
// emit, out or xmit, and any call given a descriptor-like argument, a buffer and a count. For each it
// says whether the analyzer made it a write step (the descriptor, its kind and the evidence) or why
// not: the callee is no writer it knows (no body in view; a body in the file or the tree not read as
// a writer; a macro; a call through a pointer), the write was refused (the refusal callWriteOrWhy
// gives, for a datagram descriptor the evidence), the function was never read into steps, the call
// lies in a macro's definition, in a region the grammar parsed with ERROR nodes, or in dead code. For
// each block holding two or more such calls and no finding, it says why no run formed: the engine's
// stop between two steps to one descriptor (as scripts/run-stops.js reads it), steps to different
// descriptors, or fewer than two steps (and why). It prints the counts of each reason and, with
// --samples N, up to N examples of each as file:line (--reason: only reasons containing TEXT). For a
// callee whose body in view reaches a write and was not read as a writer, it says which test of the
// helper reading refused that body (c/helperRefusals.ts) and at which line, or that the body was never
// read as a helper (it names no writer the rounds knew: the function it calls was refused first, whose
// refusal is then given), and ranks those refusals by calls and by helpers. The analyzer is seen through
// its reading observer (server/src/analyzer/c/readings.ts), its stop observer (shapes/stops.ts) and its
// helper-refusal observer (c/helperRefusals.ts), all set only by tools.
'use strict';
const { readdirSync, readFileSync, statSync, writeFileSync } = require('node:fs');
const { join, relative, resolve } = require('node:path');
const { parseArgs } = require('node:util');
const { readStop, watchAnalyses } = require('./stop-records');

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    json: { type: 'string' },
    samples: { type: 'string', default: '0' },
    reason: { type: 'string' },
  },
});
const root = join(__dirname, '..');
const out = join(root, 'server', 'out');
const analyzer = join(out, 'analyzer');
const { lint } = require(join(out, 'cli', 'main.js'));
const { Analyzer } = require(join(analyzer, 'analyzer.js'));
const { FunctionMemo } = require(join(analyzer, 'c', 'memo.js'));
const { observeStops } = require(join(analyzer, 'shapes', 'stops.js'));
const { observeReadings } = require(join(analyzer, 'c', 'readings.js'));
const { callWriteOrWhy } = require(join(analyzer, 'c', 'writes.js'));
const { isMessageDescriptor } = require(join(analyzer, 'c', 'messageDescriptors.js'));
const { cFunctionFacts } = require(join(analyzer, 'c', 'functionFacts.js'));
const { deadStatement } = require(join(analyzer, 'c', 'deadCode.js'));
const { calleeName, callArgs, canonicalTarget } = require(join(analyzer, 'c', 'syntax.js'));
const { CParser, loadCLanguage, blankMacros, macroPattern } = require(join(analyzer, 'c', 'parser.js'));
const { joinAdjacentMacros } = require(join(analyzer, 'c', 'adjacentMacros.js'));
const { parseSettings } = require(join(analyzer, 'settings.js'));
const wrappersModule = require(join(analyzer, 'c', 'wrappers.js'));
const { observeHelperRefusals } = require(join(analyzer, 'c', 'helperRefusals.js'));
const { functionName, functionDeclarator } = require(join(analyzer, 'c', 'syntax.js'));
const { onlySplitElses } = require(join(analyzer, 'c', 'sessionAlternatives.js'));

/** The write functions of the C library and the usual TLS and stdio ones, by name. */
const LIBRARY_WRITES =
  /^(write|writev|pwrite|pwrite64|pwritev|send|sendto|sendmsg|sendmmsg|sendfile|fwrite|fputs|fputc|putc|putchar|puts|printf|fprintf|vfprintf|dprintf|vdprintf|SSL_write|SSL_write_ex|BIO_write|gnutls_record_send|mbedtls_ssl_write)$/;
/** A callee name a reader takes for output. */
const WRITE_WORD = /write|send|put|emit|out|xmit/i;
/** Names that hold one of those words and are no output (`timeout`, `input`, `compute`). */
const NOT_OUTPUT =
  /timeout|layout|input|comput|reput|dispute|about|checkout|without|outside|routin|rout(e|ing)|get_?out|read|recv/i;
/** A descriptor-like argument: a name or member ending so (`fd`, `c->sock`, `conn`, `fp`). */
const DESCRIPTOR_ARG =
  /(^|[^\w])(\w*fd|\w*sock\w*|sd|s|conn\w*|fp|out\w*|tty\w*|pipe\w*|stream|handle|serial\w*|port)\s*$/i;
/** A count-like argument. */
const COUNT_ARG = /sizeof|len|size|count|\bn\b|bytes|\bnb\b|\bcnt\b/i;
/** Callees given those arguments that copy, compare or format into memory. */
const MEMORY =
  /bind|connect|accept|sockopt|mmap|ioctl|fcntl|select|poll|cpy|cmp|move|set|scanf|printf|dup|cat|chr|str|mem|read|recv|get|parse|copy|hash|crc|sum|encode|decode|sort|search|alloc/i;
/** Buffered stdio: no system call per call, so no run of them is the analyzer's to gather. */
const STDIO = /^(fwrite|fputs|fputc|putc|putchar|puts|printf|fprintf|vfprintf|vprintf|fflush)$/;

const paths = positionals;
const settings = parseSettings({});

/** path -> what the latest analysis of it showed. */
const byFile = new Map();
// Every function is read afresh on each pass, so that each pass's readings and stops are its own.
const current = watchAnalyses(
  { Analyzer, FunctionMemo },
  (path, text) => ({
    path,
    text,
    file: undefined,
    readings: [],
    stops: [],
    findings: [],
    helpers: new Map(),
  }),
  (path, record, result) => {
    if (result) record.findings = result.findings.map((f) => f.span);
    byFile.set(resolve(path), record);
  },
);

/** The write steps of `steps` (branches and loops included), each with where its calls are. */
function writeSteps(steps, into = []) {
  for (const s of steps) {
    if (s.kind === 'write') into.push(s);
    else if (s.kind === 'branch') for (const arm of s.arms) writeSteps(arm.steps, into);
    else if (s.kind === 'loop') writeSteps(s.body, into);
  }
  return into;
}

observeReadings({
  file({ ctx, streams }) {
    const file = current();
    if (file && ctx.text === file.text) file.file = { ctx, streams };
  },
  function({ fn, ctx, blocks }) {
    // A macro-expanded copy of a function has a text of its own: the plain reading is the file's.
    const file = current();
    if (!file || ctx.text !== file.text) return;
    const steps = blocks.flatMap((b) => writeSteps(b.steps));
    file.readings.push({ start: fn.startIndex, end: fn.endIndex, ctx, steps });
  },
});
// Each function read as a possible helper (wrappers.ts `wrapperOf`, called through its module's
// exports): whether it was found a writer, or the first refusal its reading gave, with where.
let helperReading;
const wrapperOf = wrappersModule.wrapperOf;
wrappersModule.wrapperOf = function wrapperOfObserved(fn, ctx) {
  const outer = helperReading;
  helperReading = { refusal: undefined };
  try {
    const found = wrapperOf(fn, ctx);
    const file = current();
    const name = functionName(fn);
    if (file && name && ctx.text === file.text) {
      const r = helperReading.refusal;
      file.helpers.set(
        name,
        found
          ? { writer: true }
          : r
            ? { why: r.slot ? `${r.why}: ${r.slot}` : r.why, at: (r.at ?? fn).startIndex }
            : { why: 'other-readers', at: fn.startIndex },
      );
    }
    return found;
  } finally {
    helperReading = outer;
  }
};
observeHelperRefusals((r) => {
  if (helperReading && !helperReading.refusal) helperReading.refusal = r;
});

observeStops((stop) => {
  const file = current();
  if (!file) return;
  const read = readStop(stop);
  if (!read) return;
  const { prev, next } = read;
  const from = prev ?? read.first;
  if (!from || from.span.end > file.text.length) return;
  file.stops.push({
    from: from.span.start,
    to: next.write.span.start,
    target: stop.target,
    reason: `${read.joiner}: ${read.why}`,
  });
});

/** The C files under `path`. */
function cFiles(path, into = []) {
  // A dangling link (a tree's `old/LICENCE` pointing nowhere) is no file.
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st) return into;
  if (st.isFile()) {
    if (/\.[ch]$/.test(path)) into.push(path);
    return into;
  }
  for (const name of readdirSync(path).sort()) {
    if (name.startsWith('.') || name === 'node_modules') continue;
    cFiles(join(path, name), into);
  }
  return into;
}

function lineStarts(text) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  return starts;
}

function lineAt(starts, offset) {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/** True when a reader takes `call` (named `name`) for output. */
function writeLike(call, name) {
  if (name && LIBRARY_WRITES.test(name)) return true;
  if (name && WRITE_WORD.test(name) && !NOT_OUTPUT.test(name)) return true;
  const args = callArgs(call).map((a) => a.text);
  if (args.length < 3 || (name && MEMORY.test(name))) return false;
  return args.some((a) => DESCRIPTOR_ARG.test(a)) && args.some((a) => COUNT_ARG.test(a));
}

/** The callee's name, or `->m` / `.m` for a call through a member. */
function calleeOf(call) {
  const name = calleeName(call);
  if (name) return name;
  const fn = call.childForFieldName('function');
  const field = fn?.type === 'field_expression' ? fn.childForFieldName('field') : undefined;
  return field ? `->${field.text}` : undefined;
}

/** System calls that write to a descriptor (what a helper must reach to be a writer). */
const SYSCALL_WRITES =
  /^(write|writev|pwrite|pwrite64|pwritev|send|sendto|sendmsg|sendmmsg|SSL_write|SSL_write_ex|gnutls_record_send|mbedtls_ssl_write|BIO_write)$/;

/**
 * How a function with a body in view reaches a write system call through the bodies of the tree
 * (`tree`: name -> the names it calls): the shortest chain of calls, or why none: it calls through a
 * pointer, or only stdio, or nothing that writes.
 */
function reach(name, tree) {
  const seen = new Map([[name, [name]]]);
  let layer = [name];
  let opaque = false;
  let stdio = false;
  for (let depth = 0; depth < 8 && layer.length > 0; depth++) {
    const next = [];
    for (const n of layer) {
      const fact = tree.get(n);
      if (!fact) continue;
      if (fact.opaque) opaque = true;
      for (const c of fact.calls) {
        if (SYSCALL_WRITES.test(c)) return { chain: [...seen.get(n), c] };
        if (STDIO.test(c)) stdio = true;
        if (seen.has(c)) continue;
        seen.set(c, [...seen.get(n), c]);
        next.push(c);
      }
    }
    layer = next;
  }
  return { opaque, stdio };
}

/** Why the analyzer does not know `name` as a writer, from where its body is and what it reaches. */
function unknownCallee(name, facts, tree, macros, record) {
  if (!name) return 'callee: no name (a computed function)';
  if (name.startsWith('->')) return 'callee: a call through a function pointer in a member';
  if (macros.has(name)) return 'callee: a function-like macro of the file, not read as a write';
  const where = facts.has(name) ? 'in the file' : tree.has(name) ? 'in another file' : undefined;
  if (!where) return 'callee: unknown, no body in view';
  const r = reach(name, tree);
  if (r.chain) {
    record.via = r.chain.join(' > ');
    // A write far down is most often a log or an error path's: the depth is told apart.
    const depth = r.chain.length - 1;
    const far = depth === 1 ? 'directly' : depth <= 3 ? 'through 2-3 calls' : 'through 4 or more calls';
    if (depth <= 3) record.refusal = helperRefusal(r.chain, record.file);
    return `callee: body ${where} calls a write ${far}, not read as a writer`;
  }
  if (r.opaque) return `callee: body ${where} reaches no write but calls through a pointer`;
  return `callee: body ${where} reaches no write system call${r.stdio ? ' (stdio only)' : ''}`;
}

/** The tree (a PATH given) whose files are being read: helpers are looked for in it only. */
let treeRoot = '';

/** The records of the files of the tree being read. */
function treeRecords() {
  const under = (path) => path === treeRoot || path.startsWith(`${treeRoot}/`);
  return [...byFile].filter(([path]) => under(path)).map(([, f]) => f);
}

/** The records of the files of the tree being read that read helpers (see wrapperOfObserved). */
function helperRecords() {
  return treeRecords().filter((f) => f.helpers.size > 0);
}

/**
 * Why the helpers of `chain` (`f > g > write`) were not read as writers: the first function of the chain
 * read as a helper and refused gives its refusal, as `name: why at file:line` (a function never read,
 * because its body names no writer the rounds knew, is passed over for the one it calls). A function of
 * the chain read as a writer ends the search: the callee itself, when it is that writer, is one its
 * callers were not given (the tree's index left it out: two definitions); else the function before it,
 * which calls that writer, was never read as a helper (a misread body, or past the rounds). The file of
 * the call (`file`) is searched first for a definition of each name.
 */
function helperRefusal(chain, file) {
  const skipped = [];
  const records = helperRecords();
  const names = chain.slice(0, -1);
  const own = byFile.get(resolve(file));
  for (const [i, name] of names.entries()) {
    // A name the call's own file defines is that definition, read or not (another file's may differ).
    const where = own && definedIn(own).has(name) ? own : records.find((f) => f.helpers.has(name));
    const h = where?.helpers.get(name);
    if (h?.writer) {
      if (i === 0) return { why: 'read as a writer in its own file, not known where called', helper: name };
      return {
        why: neverRead(names[i - 1], own, 'though it calls a helper read as a writer'),
        helper: names[i - 1],
        ...(i > 1 && { never: skipped.slice(0, -1) }),
      };
    }
    if (!h) {
      skipped.push(name);
      continue;
    }
    if (!where.starts) where.starts = lineStarts(where.text);
    const line = lineAt(where.starts, h.at);
    const rel = relative(process.cwd(), where.path);
    return {
      why: h.why,
      helper: name,
      where: `${rel.startsWith('..') ? where.path : rel}:${line}`,
      ...(skipped.length > 0 && { never: skipped }),
    };
  }
  const last = names[names.length - 1];
  return { why: neverRead(last, own, 'its body names no writer known'), helper: last };
}

/** The parser the census reads files with (set in main). */
let censusParser;

/** The names a file record's text defines (cached on the record). */
function definedIn(record) {
  if (!record.defined) record.defined = new Set(cFunctionFacts(record.text).map((f) => f.name));
  return record.defined;
}

/**
 * Why the helper `name`, never given to the helper reading, was not: its definition (in the call's own
 * file `own` if that defines it, else in the first file of the tree that does) is no function definition
 * to the grammar (a macro in its head), or one with errors in its declarator or body (wrapperChains.ts
 * `misread`: the rounds pass it over); else `otherwise`.
 */
function neverRead(name, own, otherwise) {
  const file = own && definedIn(own).has(name) ? own : treeRecords().find((f) => definedIn(f).has(name));
  const shape = file ? definitionShape(file, name) : undefined;
  return `never read as a helper, ${shape ?? otherwise}`;
}

/** `misread` or `not parsed` for the definition of `name` in a file record, or undefined when read well. */
function definitionShape(record, name) {
  record.shapes ??= new Map();
  if (record.shapes.has(name)) return record.shapes.get(name);
  const blanked = joinAdjacentMacros(
    blankMacros(record.text.replace(/\r(?!\n)/g, '\n'), macroPattern(settings.attributeMacros)),
  );
  const parsed = censusParser.parse(blanked);
  let shape = 'its definition is no function definition to the grammar (a macro in its head?)';
  try {
    for (const fn of parsed.rootNode.descendantsOfType('function_definition')) {
      if (functionName(fn) !== name) continue;
      const declarator = functionDeclarator(fn);
      const body = fn.childForFieldName('body');
      const misread =
        fn.hasError && (!declarator || declarator.hasError || (!!body?.hasError && !onlySplitElses(body)));
      shape = misread ? 'its definition parses with errors (the rounds pass it over)' : undefined;
      if (!misread) break;
    }
  } finally {
    parsed.delete();
  }
  record.shapes.set(name, shape);
  return shape;
}

/** The evidence a plain write's descriptor was taken to keep message boundaries (or be of unknown kind). */
function messageEvidence(call, ctx) {
  const fn = ctx.functions.get(calleeName(call) ?? '');
  const fd = fn ? callArgs(call)[fn.fd] : undefined;
  if (!fd) return 'descriptor: message or unknown (a wrapper over a plain write)';
  const target = canonicalTarget(fd.text);
  if (ctx.messages && isMessageDescriptor(target, ctx.messages))
    return 'descriptor: the file shows it keeps message boundaries (datagram, packet, netlink)';
  if (!ctx.streams) return 'descriptor: unknown kind, no origins read in the function';
  if (!ctx.assumeStreams) return 'descriptor: unknown kind (settings: unknownDescriptors quiet)';
  return 'descriptor: message';
}

/** The kind a write step's descriptor was taken for, and on what evidence. */
function stepKindOf(step, ctx) {
  if (step.assumed) return 'step: descriptor of unknown kind, taken as a stream';
  if (step.target === '1' || step.target === '2') return 'step: stream (a standard descriptor)';
  if (step.wrapper) return 'step: stream (through a helper read as a writer)';
  const fn = ctx.functions.get(step.callee);
  if (fn && !fn.messages) return 'step: stream (the function writes only to streams: stdio, TLS, pipes)';
  if (ctx.streams?.has(step.target)) return 'step: stream (its origin read: accept, connect, open, pipe)';
  return 'step: stream';
}

/** Where a write the analyzer would read stands, when its statement is no write step. */
function statementShape(call) {
  let at = call.parent;
  while (at && at.type === 'parenthesized_expression') at = at.parent;
  if (!at) return 'statement: other';
  const t = at.type;
  if (t === 'argument_list') return 'statement: the write is an argument of another call';
  if (t === 'return_statement') return 'statement: a return of the write';
  if (t === 'init_declarator') return 'statement: a declaration keeps the result';
  if (t === 'assignment_expression') return 'statement: an assignment keeps the result';
  if (t === 'binary_expression' || t === 'unary_expression') {
    let s = at;
    while (s && !/statement$|declaration$/.test(s.type)) s = s.parent;
    if (s?.type === 'while_statement' || s?.type === 'for_statement' || s?.type === 'do_statement')
      return 'statement: a loop condition tests the write';
    if (s?.type === 'if_statement') return 'statement: an if tests the write in a way not read';
    return 'statement: the write inside an expression';
  }
  return `statement: ${t}`;
}

/** Names of the function-like macros `text` defines, and the write-like calls in their bodies. */
function macrosOf(text) {
  const names = new Set();
  const calls = [];
  const define = /^[ \t]*#[ \t]*define[ \t]+(\w+)\(([^)]*)\)((?:[^\n\\]|\\\n|\\.)*)/gm;
  for (const m of text.matchAll(define)) {
    names.add(m[1]);
    const bodyAt = m.index + m[0].length - m[3].length;
    for (const c of m[3].matchAll(/\b(\w+)\s*\(/g)) {
      const name = c[1];
      if (LIBRARY_WRITES.test(name) || (WRITE_WORD.test(name) && !NOT_OUTPUT.test(name)))
        calls.push({ name, offset: bodyAt + c.index, macro: m[1] });
    }
  }
  return { names, calls };
}

/** The innermost compound statement or `case` arm around `node`. */
function blockOf(node) {
  for (let at = node.parent; at; at = at.parent)
    if (at.type === 'compound_statement' || at.type === 'case_statement') return at;
  return undefined;
}

/** Why each write-like call of one file is or is not a write step; and each silent block. */
function census(path, text, parser, tree) {
  const seen = byFile.get(resolve(path));
  const starts = lineStarts(text);
  const facts = new Set(cFunctionFacts(text).map((f) => f.name));
  const macros = macrosOf(text);
  const records = [];
  const blocks = new Map();
  const blanked = joinAdjacentMacros(
    blankMacros(text.replace(/\r(?!\n)/g, '\n'), macroPattern(settings.attributeMacros)),
  );
  const parsed = parser.parse(blanked);
  try {
    for (const call of parsed.rootNode.descendantsOfType('call_expression')) {
      const name = calleeOf(call);
      if (!writeLike(call, name)) continue;
      const record = {
        file: path,
        line: lineAt(starts, call.startIndex),
        callee: name,
        text: call.text.slice(0, 90),
      };
      record.reason = classify(call, name, seen, facts, tree, macros, record);
      records.push(record);
      const block = blockOf(call);
      if (block) {
        const key = block.startIndex;
        if (!blocks.has(key)) blocks.set(key, { start: block.startIndex, end: block.endIndex, calls: [] });
        blocks.get(key).calls.push({ record, start: call.startIndex });
      }
    }
  } finally {
    parsed.delete();
  }
  for (const m of macros.calls)
    records.push({
      file: path,
      line: lineAt(starts, m.offset),
      callee: m.name,
      text: `#define ${m.macro}(...) ... ${m.name}(`,
      reason: 'macro: inside a macro definition',
    });
  const silent = [];
  for (const block of blocks.values()) {
    if (block.calls.length < 2) continue;
    if (seen?.findings.some((f) => f.start < block.end && block.start < f.end)) continue;
    silent.push({
      file: path,
      line: lineAt(starts, block.calls[0].start),
      lines: block.calls.map((c) => c.record.line),
      reason: blockReason(block, seen, text),
    });
  }
  return { records, silent };
}

/** What the analyzer made of one write-like call (see the header). */
function classify(call, name, seen, facts, tree, macros, record) {
  for (let at = call; at; at = at.parent) {
    if (at.type === 'ERROR') return 'parse: in a region parsed with ERROR nodes';
    if (deadStatement(at)) return 'dead: in code that never runs (if (0), #if 0)';
  }
  const statement = (() => {
    let at = call;
    while (at.parent && !/statement$|declaration$/.test(at.type)) at = at.parent;
    return at;
  })();
  if (statement.hasError) return 'parse: its statement holds ERROR nodes';
  const reading = seen?.readings.find((r) => r.start <= call.startIndex && call.endIndex <= r.end);
  if (reading) {
    // A statement's span holds its error handling too (`if (write(...) < 0) fprintf(...)`): the
    // step is this call's only where its callee is the step's.
    const step = reading.steps.find(
      (s) =>
        (s.calls ?? [s.span]).some((c) => c.start <= call.startIndex && call.endIndex <= c.end) &&
        (s.calls || s.callee === name || s.wrapper?.name === name),
    );
    if (step) {
      record.target = step.target;
      return stepKindOf(step, reading.ctx);
    }
  }
  const ctx = reading?.ctx ?? seen?.file?.ctx;
  if (!ctx) {
    if (STDIO.test(name ?? '')) return 'stdio: buffered, no system call per call';
    record.fileRead = false;
    return unknownCallee(name, facts, tree, macros.names, record);
  }
  if (STDIO.test(name ?? '')) return 'stdio: buffered, no system call per call';
  if (!reading) {
    // The file's context knows no function's descriptors: only whether the callee is a writer.
    const known = !!name && (ctx.functions.has(name) || ctx.wrappers.has(name) || !!ctx.macros?.has(name));
    if (!known) return unknownCallee(name, facts, tree, macros.names, record);
    let fn = call.parent;
    while (fn && fn.type !== 'function_definition') fn = fn.parent;
    return fn
      ? 'function not read: its text shows fewer than two writes'
      : 'function not read: no function definition parsed around it (a macro in its head?)';
  }
  const write = callWriteOrWhy(call, ctx);
  if (typeof write !== 'string') {
    record.target = write.target;
    return statementShape(call);
  }
  if (write === 'not-a-writer' || write === 'no-name')
    return unknownCallee(name, facts, tree, macros.names, record);
  if (write === 'message') return messageEvidence(call, ctx);
  return `refused: ${write}`;
}

/** Why a block with two or more write-like calls and no finding formed no run. */
function blockReason(block, seen, text) {
  const steps = block.calls.filter((c) => c.record.reason.startsWith('step:'));
  const byTarget = new Map();
  for (const c of steps) byTarget.set(c.record.target, [...(byTarget.get(c.record.target) ?? []), c]);
  const pair = [...byTarget.values()].find((l) => l.length >= 2);
  if (pair) {
    const stops = (seen?.stops ?? []).filter(
      (s) => s.target === pair[0].record.target && s.from >= block.start && s.to < block.end,
    );
    if (stops.length > 0) return `stop: ${stops[0].reason}`;
    // Two spellings of one write for two platforms: only one is compiled.
    const between = text.slice(pair[0].start, pair[pair.length - 1].start);
    if (/^[ \t]*#[ \t]*(else|elif)\b/m.test(between))
      return 'steps to one descriptor, alternatives of #if/#else';
    return 'steps to one descriptor, no stop seen';
  }
  if (steps.length >= 2) return 'steps to different descriptors';
  const others = block.calls.filter((c) => !c.record.reason.startsWith('step:'));
  const counts = new Map();
  for (const c of others) counts.set(c.record.reason, (counts.get(c.record.reason) ?? 0) + 1);
  const top = [...counts].sort((a, b) => b[1] - a[1])[0];
  return `fewer than two steps: ${top ? top[0] : 'none'}`;
}

function tally(rows) {
  const counts = new Map();
  for (const r of rows) {
    const c = counts.get(r.reason) ?? [];
    c.push(r);
    counts.set(r.reason, c);
  }
  return [...counts].sort((a, b) => b[1].length - a[1].length);
}

function print(title, rows, n) {
  console.log(`\n${title}: ${rows.length}`);
  const counted = tally(rows);
  for (const [reason, list] of counted) console.log(`${list.length}\t${reason}`);
  if (n <= 0) return;
  for (const [reason, list] of counted) {
    if (values.reason && !reason.includes(values.reason)) continue;
    console.log(`\n== ${reason}`);
    // Spread over the files: every k-th example rather than the first n of one file.
    const step = Math.max(1, Math.floor(list.length / n));
    for (let i = 0; i < list.length && i / step < n; i += step) {
      const r = list[i];
      const rel = relative(process.cwd(), r.file);
      const where = `${rel.startsWith('..') ? r.file : rel}:${r.lines ? r.lines.join(',') : r.line}`;
      const refusal = r.refusal
        ? `  {${r.refusal.helper}: ${r.refusal.why}${r.refusal.where ? ` at ${r.refusal.where}` : ''}}`
        : '';
      console.log(
        `  ${where}${r.text ? `  ${r.text.replace(/\s+/g, ' ')}` : ''}${r.via ? `  [${r.via}]` : ''}${refusal}`,
      );
    }
  }
}

async function main() {
  if (paths.length === 0) {
    console.error('why-quiet: give one or more files or trees');
    process.exit(2);
  }
  for (const p of paths) {
    process.stderr.write(`why-quiet: ${p}\n`);
    await lint({ paths: [p], fix: false, jobs: 1 }, settings);
  }
  const parser = new CParser(await loadCLanguage());
  censusParser = parser;
  const records = [];
  const silent = [];
  for (const p of paths) {
    treeRoot = resolve(p);
    const files = cFiles(p);
    const texts = files.map((f) => readFileSync(f, 'utf8'));
    // The functions the tree defines, by name, with the names they call (every definition's).
    const tree = new Map();
    for (const t of texts)
      for (const f of cFunctionFacts(t)) {
        const had = tree.get(f.name);
        tree.set(f.name, {
          calls: had ? [...new Set([...had.calls, ...f.calls])] : f.calls,
          opaque: f.opaque || !!had?.opaque,
        });
      }
    files.forEach((f, i) => {
      const found = census(f, texts[i], parser, tree);
      records.push(...found.records);
      silent.push(...found.silent);
    });
  }
  if (values.json) writeFileSync(values.json, JSON.stringify({ records, silent }, null, 1));
  const n = Number(values.samples);
  print('write-like calls', records, n);
  print('blocks with two or more write-like calls and no finding', silent, n);
  printRefusals(records, n);
}

/**
 * The refusals of the helpers whose calls reach a write in 1-3 calls and were not read as writers,
 * ranked by calls, with how many helpers (distinct refused definitions) each holds and, with
 * --samples N, up to N helpers of each (the most called first) with where their body was refused.
 */
function printRefusals(records, n) {
  const refused = records.filter((r) => r.refusal);
  console.log(
    `\nhelpers reaching a write in 1-3 calls, not read as writers, by refusal: ${refused.length} calls`,
  );
  const byWhy = new Map();
  for (const r of refused) {
    const entry = byWhy.get(r.refusal.why) ?? { calls: 0, helpers: new Map() };
    entry.calls++;
    const key = r.refusal.where ?? r.refusal.helper;
    const helper = entry.helpers.get(key) ?? { refusal: r.refusal, calls: [] };
    helper.calls.push(r);
    entry.helpers.set(key, helper);
    byWhy.set(r.refusal.why, entry);
  }
  const ranked = [...byWhy].sort((a, b) => b[1].calls - a[1].calls);
  console.log('calls\thelpers\trefusal');
  for (const [why, e] of ranked) console.log(`${e.calls}\t${e.helpers.size}\t${why}`);
  if (n <= 0) return;
  for (const [why, e] of ranked) {
    if (values.reason && !why.includes(values.reason)) continue;
    console.log(`\n== refusal ${why}`);
    const helpers = [...e.helpers.values()].sort((a, b) => b.calls.length - a.calls.length).slice(0, n);
    for (const h of helpers) {
      const first = h.calls[0];
      const rel = relative(process.cwd(), first.file);
      console.log(
        `  ${h.refusal.helper}${h.refusal.where ? ` at ${h.refusal.where}` : ''}: ${h.calls.length} calls, e.g. ${rel.startsWith('..') ? first.file : rel}:${first.line}${h.refusal.never ? ` (through ${h.refusal.never.join(' > ')})` : ''}`,
      );
    }
  }
}

main().catch((error) => {
  console.error(`why-quiet: ${error instanceof Error ? error.stack : String(error)}`);
  process.exit(2);
});
