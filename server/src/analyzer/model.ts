// The language-neutral model the analyzer works on. Each language front end (c/, ts/) turns a file into
// blocks of steps; the shape finders (shapes/) only ever see steps; the fix builders (fixes/) turn runs
// of steps back into text edits. Offsets everywhere are UTF-16 code units into the document text, the
// unit both the TypeScript compiler and web-tree-sitter (for string input) report.

/** A language the analyzer understands. */
export type Language = 'c' | 'typescript' | 'javascript';

/** A half-open range `[start, end)` of UTF-16 code-unit offsets into a document's text. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** One buffer a write sends, as source text. */
export interface Piece {
  /** The buffer (C: a pointer expression; TS: a `Uint8Array` expression). */
  readonly buf: string;
  /** C: the length in bytes. TS: absent (the buffer knows its length). */
  readonly len?: string;
  /** TS: the buffer is a string and must be encoded before it goes into a gathered write. */
  readonly isString?: boolean;
}

/**
 * The text of a write statement around its call, so a gathered call can be put in its place with the
 * statement's error handling intact: `if (` + call + `) < 0) die(...);`.
 */
export interface Template {
  readonly before: string;
  readonly after: string;
  /** Leading whitespace of the statement's first line (continuation lines are indented from it). */
  readonly indent: string;
}

/** A statement that writes to one descriptor (or stream) and nothing else. */
export interface WriteStep {
  readonly kind: 'write';
  /** The whole statement, error handling included. */
  readonly span: Span;
  /** The descriptor expression, canonical (whitespace removed, `STDOUT_FILENO` -> `1`). */
  readonly target: string;
  /** The descriptor expression as written, for the fix. */
  readonly fdText: string;
  /** Identifiers the descriptor expression reads: a use of any of them between writes ends a run. */
  readonly targetNames: readonly string[];
  /** The function called, as written (or the wrapper's name for a call through a wrapper). */
  readonly callee: string;
  /**
   * What the gathered call is named when this write joins others (`writev_in_full`, `writevInFull`,
   * `handle.writev`, `cork`); writes of different families never share a fix.
   */
  readonly family: string;
  /** The buffers sent, in order; absent when they cannot be listed (a writev of an opaque array). */
  readonly pieces?: readonly Piece[];
  /** Identifiers the arguments read. */
  readonly reads: readonly string[];
  /** The statement text around the call; absent when no fix can keep the statement's meaning. */
  readonly template?: Template;
  /** A positional write: the file offset expression, and the offsets a contiguous next write may use. */
  readonly position?: { readonly at: string; readonly next: readonly string[] };
  /** Set for calls through a wrapper function: its name and where it is defined. */
  readonly wrapper?: { readonly name: string; readonly file?: string };
  /** A stream write (`stream.write()`): cork/uncork is the fix, and the hint is informational. */
  readonly stream?: boolean;
  /**
   * Syscalls the statement makes (absent: one). More than one for writes chained in one condition
   * (`if (w(fd, a) < 0 || w(fd, b) < 0)`) and for calls to a wrapper that writes a frame per call.
   */
  readonly syscalls?: number;
  /** The statement is one condition chaining several writes: it is a sequence on its own. */
  readonly chain?: boolean;
  /** The statement does more than write (a chain with further tests, a `return`): it is a run alone. */
  readonly alone?: boolean;
  /** The write runs only when this condition holds (`if (negated) write(...)`, no `else`). */
  readonly condition?: string;
  /** Where the write calls are, when not the statement itself (a chain's calls, a conditional's). */
  readonly calls?: readonly Span[];
  /** Why no fix can include this write (it then only counts in the hint's syscall total). */
  readonly noFix?: string;
  /**
   * Variables the statement keeps the write's result in (`(n = write(...)) < 0`, `ret = write(...)`):
   * a later write that sends one of them depends on this write's result.
   */
  readonly assigns?: readonly string[];
  /**
   * The statements after the write test its kept result and leave when it failed: past them the
   * result is the whole length, and summing it (`total += n;`) reads no partial count.
   */
  readonly resultTested?: true;
  /**
   * What the checks after the write update on its failure and then go on (`if (n < 0) nerr++;`):
   * variables or members, canonical (`nerr`, `l->nerror`). The writes after run on every path; a step
   * that reads one of these depends on how the writes before it fared.
   */
  readonly failureSets?: readonly string[];
  /**
   * What picks the path the write's helper takes (its connection's TLS session, or the descriptor):
   * member paths (`c->secure`) or names, canonical. A statement changing one between two writes sends
   * them by different paths: the run ends there (see shapes/joiners/choices.ts).
   */
  readonly chosenBy?: readonly string[];
  /** Taken from a switch case's arm into a run around the switch: the test that arm runs under. */
  readonly caseTest?: CaseTest;
  /** The statement leaves the function (`return write(...)`): no write can follow it on its path. */
  readonly leaves?: boolean;
  /**
   * The constant the statement returns where its write fails, its test of the write being all that
   * decides (`if (write(...) != n) return -1;` gives `-1`, `return write(...) == n ? 0 : -1;` gives `-1`,
   * `return write(...) == n;` gives `0`), whitespace removed. Writes whose failures all return one
   * constant, the last returning its own outcome, fail the same way as one gathered call returning it.
   */
  readonly failureReturn?: string;
  /**
   * The write runs only when the variable named here says the write before it succeeded
   * (`if (ret != -1) ret = write(...)`): right after a write that kept its result there, the test is
   * that run's own failure check, not a condition of its own. Also in `condition` and `reads`, for
   * when it follows anything else.
   */
  readonly gate?: string;
  /**
   * With `gate`, when the gate is one term of a conjunction whose other terms only read (`if (ret == 0
   * && body != NULL)`): those terms, the write's own condition once the gate is the run's failure check.
   */
  readonly gateRest?: string;
  /**
   * With `gate`: the write before runs under a test of its own, and the status held success before
   * it (`int ret = 0; if (hdr) ret = put(...);`), so the gate holds where that write did not run.
   */
  readonly gateHeld?: true;
  /**
   * The descriptor's kind is unknown (a parameter, a member set elsewhere): a run with this write is
   * reported on the assumption that it is a byte stream, under its own code and without a fix.
   */
  readonly assumed?: boolean;
  /**
   * What evaluating the statement does before the write (its arguments, or the test of its `if`):
   * calls to functions that do no output (known from the fact base) and the names they may change, or
   * with `io`, calls that may do I/O or change anything. A later write of a run would make those
   * calls before the earlier writes; the first write makes them where they always ran.
   */
  /**
   * What a run that this write joined takes for granted, said in its finding: calls in its arguments
   * whose bodies were not read, taken to do no output.
   */
  readonly assumes?: string;
  /** Functions returning static storage (overwritten by their next call) the statement calls. */
  readonly staticCalls?: readonly string[];
  /**
   * Functions returning static storage whose result the write sends: called in its statement, or
   * assigned to a local it reads. A later call of one changes what this write sent.
   */
  readonly staticSent?: readonly string[];
  /**
   * The write formats its arguments into text of its own when it runs (a printf-style helper,
   * `dprintf`): what it sent is that text, so no later change of an argument's memory changes it.
   */
  readonly formatted?: true;
  readonly argumentCalls?: {
    readonly calls: readonly string[];
    readonly changes: readonly string[];
    readonly io?: boolean;
    /**
     * Of `calls`, those whose bodies are nowhere the analyzer reads: taken to do no output, an
     * assumption a finding then says.
     */
    readonly assumed?: readonly string[];
  };
}

/** An if/else chain whose every arm ends in a write (a run of branch tails starts with one). */
export interface BranchStep {
  readonly kind: 'branch';
  readonly span: Span;
  /**
   * The names its tests read (absent when the front end does not say): with what its arms' steps
   * read, whether the branch may read a result an earlier write kept.
   */
  readonly tests?: readonly string[];
  /** Each arm's statements, in order; the chain is exhaustive (ends in a plain `else`). */
  readonly arms: readonly Arm[];
  /**
   * An `if` without `else` (or an else-if chain without a final `else`, or a chain whose tests have
   * effects) instead: writes at the start or the end of its arms may join writes before or after it,
   * in a hint without a fix.
   */
  readonly partial?: {
    readonly condition: string;
    /** A test may have effects (a call, an assignment): only writes that end an arm may join others. */
    readonly opaque?: boolean;
    /**
     * With `opaque`: what each test does, read as a statement (`inet_ntop(AF_INET, &ip, text, n)`
     * fills `text`), when the front end can say; a branch that only computes folds them in.
     */
    readonly testEffects?: readonly OtherStep[];
    /** The chain ends in a plain `else` (a partial step only because a test has effects). */
    readonly exhaustive?: boolean;
    /**
     * An early exit (`if (!more) return 0;`): the body only leaves the block, computing nothing on
     * the way, and the test only reads these names. Writes after it run when the test fails.
     */
    readonly exit?: { readonly reads: readonly string[] };
    /**
     * The body does more and then leaves the block the same way (`{ put(fd, "", 1); return 1; }`, its
     * last statement): the code after the branch runs only when the test, which only reads these
     * names, fails.
     */
    readonly exitLast?: { readonly reads: readonly string[] };
  };
}

/** One arm of a {@link BranchStep}. */
export interface Arm {
  readonly steps: readonly Step[];
  /** Names declared inside the arm: a buffer declared there is gone after the branch. */
  readonly declares: readonly string[];
  /** A switch case's arm: the values of the switch's subject that take it (see {@link CaseTest}). */
  readonly test?: CaseTest;
}

/**
 * The test a switch case's arm runs under: its subject equals one of `labels` (or, with `otherwise`,
 * none of them: the `default` arm). Labels are canonical: an integer's decimal text when `values` or
 * the literal gives one, the name as written otherwise.
 */
export interface CaseTest {
  /** The switch's value, canonical (whitespace and outer parentheses removed). */
  readonly subject: string;
  /** The names `subject` reads: a statement changing one between two writes changes the test. */
  readonly reads: readonly string[];
  readonly labels: readonly string[];
  readonly otherwise?: true;
  /** Where the switch starts: the arms of one switch are alternatives of each other, not a sequence. */
  readonly at: number;
  /** The integer values the file gives constant names (enum members, `#define`s), to compare labels with other tests. */
  readonly values: ReadonlyMap<string, number>;
}

/** A loop whose body may write once per iteration. */
export interface LoopStep {
  readonly kind: 'loop';
  readonly span: Span;
  /** The body's statements. */
  readonly body: readonly Step[];
  /** Identifiers that change from one iteration to the next (loop variables, names assigned in it). */
  readonly varying: readonly string[];
  /** Variables whose contents (not binding) change in the loop: a buffer refilled in place. */
  readonly mutated: readonly string[];
  /**
   * Identifiers the loop's header reads (its test, a `for`'s update); absent when the front end does
   * not say. A header reading a write's result (`off += nw`) repeats one write until it is all out.
   */
  readonly tests?: readonly string[];
  /**
   * Buffers the loop sends in capped slices (`write(fd, s, N); s += N;`), as the writes' pieces spell
   * them: each call sends the next bytes of one contiguous buffer. Absent when none, or when the front
   * end does not say.
   */
  readonly slices?: readonly string[];
  /**
   * The whole loop as one statement, when it only computes (`for (i = 0; i < n; i++) sum += p[i];`):
   * no write, no call that may do output, nothing that leaves the function. Absent otherwise, and
   * when the front end does not say.
   */
  readonly computation?: OtherStep;
}

/** Any other statement, summarised by what it reads and may change. */
export interface OtherStep {
  readonly kind: 'other';
  readonly span: Span;
  /** Identifiers read. */
  readonly reads: readonly string[];
  /** Identifiers possibly changed (assigned, incremented, passed by address or as call arguments). */
  readonly writes: readonly string[];
  /** Functions called (so a shape can require a pure statement). */
  readonly calls: readonly string[];
  /**
   * Of `writes`, the names whose contents (not only binding) may change: `buf[0] = c`, `&buf` or
   * `buf` passed to a call. Absent: take every name in `writes` as possibly changed in place.
   */
  readonly mutated?: readonly string[];
  /**
   * Member paths through which the contents of names in `mutated` change (`ddf->phys->crc = ...`,
   * `crc(&ddf->controller, n)`), canonical, listed only for names changed through nothing else: a
   * buffer at another member of the same name keeps its bytes.
   */
  readonly mutatedPaths?: readonly string[];
  /** The statement may do I/O, leave the block, or could not be understood: a run cannot cross it. */
  readonly barrier: boolean;
  /** A comment: carries no behaviour, but its text moves with the statements around it. */
  readonly comment?: boolean;
  /**
   * Calls a function not known to be quiet: it may print, so a run to a descriptor other code can
   * reach (stdout, stderr, a global) stops here.
   */
  readonly output?: boolean;
  /**
   * Set when its only output is a print to stdout, stderr or the system log (see
   * c/standardPrints.ts): the descriptors such a print cannot reach. The step is a barrier, which a
   * run to one of those descriptors alone may cross (see quiet() in shapes/branches.ts).
   */
  readonly printsApart?: ReadonlySet<string>;
  /** Assigns a variable that is not the function's own: the writes' error paths may report it. */
  readonly setsGlobal?: boolean;
  /** Names whose memory the statement releases (`free(buf)`): a write that sent it ends its run. */
  readonly frees?: readonly string[];
  /** Functions returning static storage (overwritten by their next call) the statement calls. */
  readonly staticCalls?: readonly string[];
  /**
   * A barrier that only leaves the block (`break`, `continue`, `goto`, or a `return` that calls and
   * changes nothing): an arm made of it alone writes nothing and ends its path (see leavingArms.ts).
   */
  readonly quietLeave?: boolean;
  /**
   * Member paths assigned (`ctx->count`, `opt.len`), canonical, for the names of `writes` that change
   * only through such assignments: a descriptor at another member (`ctx->out`) stays the same.
   */
  readonly members?: readonly string[];
  /**
   * What its calls are handed, canonical: member paths (`c->key`, `c->ctx`) for names handed only
   * through members, and names handed whole (`c`). Absent: a front end that does not say, or no call.
   */
  readonly handed?: readonly string[];
}

/** A statement in a block, as the shape finders see it. */
export type Step = WriteStep | BranchStep | LoopStep | OtherStep;

/** A statement list (a block, or a function body) and the function it belongs to. */
export interface Block {
  readonly steps: readonly Step[];
  /** Names declared in the enclosing function (parameters and locals); anything else may be global. */
  readonly locals: ReadonlySet<string>;
  /** Leading whitespace of the block's statements, for building replacement text. */
  readonly indent: string;
}

/** A replacement of a span of text. */
export interface TextEdit {
  readonly span: Span;
  readonly newText: string;
}

/**
 * How far a fix can be trusted to keep the program's behaviour (ruff's applicability). `safe`: the
 * writes are replaced where they stand by one gathered call with the same error handling, so every
 * path fails with the same message and exit. `unsafe`: the fix also moves a statement, runs a
 * computation before a write it used to follow, or gives a write another failure path (a write
 * whose result was ignored or handled differently now fails as the gathered call does). `--fix` and
 * the editor's fix-all apply safe fixes only; `--unsafe-fixes` and a single quick fix apply both.
 */
export type FixSafety = 'safe' | 'unsafe';

/** A rewrite offered for a finding. */
export interface Fix {
  readonly title: string;
  readonly edits: readonly TextEdit[];
  /** Whether the fix keeps behaviour as it stands ({@link FixSafety}). */
  readonly safety: FixSafety;
  /** For an unsafe fix: what it changes besides the writes ("moves 1 statement after the gathered call"). */
  readonly unsafeBecause?: string;
}

/** The codes of the analyzer's rules (what suppression comments name). */
export const RULE_CODES = ['adjacent-writes', 'adjacent-writes-unknown-fd', 'loop-writes'] as const;

/** A rule's code. */
export type RuleCode = (typeof RULE_CODES)[number];

/** The diagnostic codes the analyzer reports: the rules', and `unused-directive` for suppression comments. */
export type FindingCode = RuleCode | 'unused-directive';

/** Severity as the analyzer reports it (mapped onto LSP severities by the server). */
export type Severity = 'error' | 'warning' | 'information' | 'hint';

/** One hint: a sequence (or loop) of writes that one gathered write could replace. */
export interface Finding {
  readonly code: FindingCode;
  readonly severity: Severity;
  readonly message: string;
  /** The whole sequence, from the first write's statement to the last one's. */
  readonly span: Span;
  /** Each write involved, with a short label. */
  readonly related: readonly { readonly span: Span; readonly message: string }[];
  /** The syscalls the sequence makes now (becomes one). */
  readonly syscalls: number;
  /** The descriptor, as written in the code. */
  readonly target: string;
  /** The quick fix, when one that keeps the code's meaning could be built. */
  readonly fix?: Fix;
}

/** The documentation every finding links to: the README's linter section, anchored by code. */
export const DOCS_URL = 'https://github.com/writev/writev';
