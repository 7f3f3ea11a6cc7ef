// The documentation of each code writev-lint reports: SARIF's rule descriptors (for code scanning) and
// what `writev-lint --explain <code>` prints, from one table.
import { DOCS_URL } from '../analyzer/model';
import type { Code } from './args';

const ADJACENT_HELP =
  'Each write() is a syscall. When several writes to the same descriptor follow each other, gathering ' +
  'their buffers into one writev_in_full() (C) or writevInFull() (TS/JS) sends them with one syscall, ' +
  'and the reader sees the bytes at once instead of in pieces.';
const LOOP_HELP =
  'A write per loop iteration costs one syscall per iteration. Collect the buffers in the loop and send ' +
  'them with one writev after it (in chunks of at most IOV_MAX buffers).';

const MEASURED_HELP =
  'In the run writev-trace recorded, this line made many write-family system calls of a few bytes each, and no static rule explains them. Gather the buffers into one writev, or buffer the output.';

/** Each code's documentation, as SARIF's `reportingDescriptor`s carry it; `--explain` prints it too. */
export const RULES = [
  {
    id: 'adjacent-writes',
    name: 'AdjacentWrites',
    shortDescription: {
      text: 'Several writes to one descriptor in a row: one gathered write (writev) would do.',
    },
    fullDescription: {
      text: 'Adjacent write calls to the same descriptor cost one syscall each; gathering their buffers into one writev_in_full (C) or writevInFull (TS/JS) sends them with one.',
    },
    help: {
      text: `${ADJACENT_HELP} writev-lint --fix rewrites the sequence where it can prove the rewrite safe.`,
      markdown:
        `${ADJACENT_HELP}\n\n` +
        '```c\nwrite_or_die(fd, hdr, 4);\nwrite_or_die(fd, body, len);\n```\n\nbecomes\n\n' +
        '```c\nstruct iovec iov[2] = {{hdr, 4}, {body, len}};\nwritev_or_die(fd, iov, 2);\n```\n\n' +
        '`writev-lint --fix` applies this where it is safe.',
    },
    helpUri: `${DOCS_URL}#adjacent-writes`,
    defaultConfiguration: { level: 'warning' },
    properties: { tags: ['performance', 'syscalls', 'io'], precision: 'high' },
  },
  {
    id: 'adjacent-writes-unknown-fd',
    name: 'AdjacentWritesUnknownFd',
    shortDescription: {
      text: 'Several plain writes in a row to a descriptor whose kind the code does not show.',
    },
    fullDescription: {
      text: 'If the descriptor is a byte stream (a file, pipe or stream socket), one gathered write (writev) would do; on a datagram socket or a device each write is one message, so there is no automatic fix.',
    },
    help: {
      text: `${ADJACENT_HELP} Check what the descriptor is first: the code does not show it (a parameter, a member set elsewhere).`,
      markdown:
        `${ADJACENT_HELP}\n\nCheck what the descriptor is first: the code does not show it.\n\n` +
        '```c\nvoid send_both(int fd, const char *hdr, const char *body, size_t len)\n{\n\twrite(fd, hdr, 4);\n\twrite(fd, body, len);\n}\n```\n\n' +
        'is one `writev(fd, iov, 2)` if `fd` is a file, a pipe or a stream socket; on a datagram socket it would merge two messages.',
    },
    helpUri: `${DOCS_URL}#adjacent-writes-unknown-fd`,
    defaultConfiguration: { level: 'note' },
    properties: { tags: ['performance', 'syscalls', 'io'], precision: 'medium' },
  },
  {
    id: 'loop-writes',
    name: 'LoopWrites',
    shortDescription: { text: 'A write per loop iteration to one descriptor.' },
    fullDescription: {
      text: 'Each iteration makes a syscall; collecting the buffers and writing them with one writev after the loop makes one.',
    },
    help: {
      text: LOOP_HELP,
      markdown:
        `${LOOP_HELP}\n\n` +
        '```c\nfor (i = 0; i < n; i++)\n\twrite_or_die(fd, lines[i], len[i]);\n```\n\n' +
        'becomes an array of `struct iovec` filled in the loop and one `writev_or_die()` after it.',
    },
    helpUri: `${DOCS_URL}#loop-writes`,
    defaultConfiguration: { level: 'note' },
    // A loop's trip count is unknown: some loops run once, so fewer of these are worth changing.
    properties: { tags: ['performance', 'syscalls', 'io'], precision: 'medium' },
  },
  {
    id: 'unused-directive',
    name: 'UnusedDirective',
    shortDescription: {
      text: 'A writev-lint-disable comment that suppresses nothing, or names an unknown code.',
    },
    fullDescription: {
      text: 'Reported with --report-unused-directives (or the reportUnusedDirectives setting): remove the comment, or fix the code it names.',
    },
    help: {
      text: 'A suppression comment that suppresses nothing hides future findings without a reason: remove it, or correct the code it names.',
      markdown:
        'A suppression comment that suppresses nothing hides future findings without a reason: remove it, or correct the code it names.\n\n' +
        '```c\n/* writev-lint-disable-next-line adjacent-writes */\nwrite_or_die(fd, buf, len); /* a single write: nothing to suppress */\n```',
    },
    helpUri: `${DOCS_URL}#unused-directive`,
    defaultConfiguration: { level: 'warning' },
    // Whether a directive suppresses anything is exact: it is checked against the findings themselves.
    properties: { tags: ['maintainability', 'suppression'], precision: 'very-high' },
  },
  {
    id: 'measured-writes',
    name: 'MeasuredWrites',
    shortDescription: { text: 'A traced line made many small write calls.' },
    fullDescription: {
      text: 'In the run recorded by writev-trace, this line made many write-family syscalls of a few bytes each, and no static rule explains it: gather the buffers (writev) or buffer the output.',
    },
    helpUri: `${DOCS_URL}#measured-writes`,
    help: {
      text: MEASURED_HELP,
      markdown:
        `${MEASURED_HELP}\n\n` +
        '```c\nfor (i = 0; i < n; i++)\n\tput(fd, text + i); /* 10,000 write calls of 1 byte in the trace */\n```',
    },
    defaultConfiguration: { level: 'note' },
    // Measured, not inferred: the calls were made; whether they matter depends on the workload traced.
    properties: { tags: ['performance', 'syscalls', 'io', 'measured'], precision: 'high' },
  },
] as const;

/** What `--explain code` prints: the code, its name and one line, the help (markdown), the link. */
export function explainRule(code: Code): string {
  const rule = RULES.find((r) => r.id === code);
  if (rule === undefined) throw new Error(`no documentation for ${code}`);
  return `${rule.id} (${rule.name}): ${rule.shortDescription.text}\n\n${rule.help.markdown}\n\nMore: ${rule.helpUri}\n`;
}
