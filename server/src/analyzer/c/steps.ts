// Turns the functions of a parsed C file into blocks of steps (see model.ts). Anything it does not
// understand becomes a barrier, so a broken or macro-heavy statement ends a run instead of hiding a
// dependency; the rest of the function, and the rest of the file, are still read.
import type { Node } from 'web-tree-sitter';
import { C_FIRST_ARGUMENT_FILLERS, freesFirstArgument, digestName, ioName } from '../catalogue';
import { waitingCall } from './terminalRequests';
import type { Arm, Block, OtherStep, Step, WriteStep } from '../model';
import { indentAt } from '../positions';
import { barrierStep, commentStep, ifChainArms, summaryStep } from '../stepRules';
import {
  calleeName,
  calls,
  canonicalTarget,
  declaredName,
  declarationsOf,
  functionName,
  identifiers,
  namedKids,
  parameterNames,
  lvaluePath,
  rootName,
  unwrap,
  constantCondition,
} from './syntax';
import { offsetBases } from './offsetBases';
import { helperElements } from './pairArrays';
import { assumedResults } from './assumedResults';
import { commaStep } from './commaPreludes';
import { accumulatedStep, chainStep, conditionalStep, resultChecked, returnStep } from './chains';
import { summedWrites } from './summedCounts';
import { talliedStep } from './talliedCounts';
import { retriedStep } from './retries';
import { descriptorAliases } from './aliases';
import { pointerCopies } from './localSpellings';
import { shadowsOf } from './shadowedGlobals';
import { deadStatement } from './deadCode';
import { definingDirectiveStep } from './definingDirectives';
import { gatedStep } from './gatedWrites';
import { returnedStep } from './returnedWrites';
import { reachedMembers } from './reachedMembers';
import { successBranch, successLead } from './successBodies';
import { successStatusStep } from './successStatus';
import { constPointeesOf } from './constPointees';
import { bufferAliases, objectPointers } from './bufferAliases';
import { elseChainStep } from './elseChains';
import { checkedElseStep, type ArmReader } from './checkedElses';
import { keptElseStep } from './keptElses';
import { partialSwitch } from './openSwitches';
import { cappedSlices } from './cappedSlices';
import { withCaseTests } from './caseTests';
import { caseArms, switchCases } from './switchCases';
import { directiveCases } from './directiveCases';
import { functionStreams, type FileStreams } from './origins';
import {
  deviceDescriptors,
  fileDeviceDescriptors,
  isMessageDescriptor,
  messagesIn,
  usedInFile,
  type MessageDescriptors,
} from './messageDescriptors';
import { memberStreamTargets, ownStreamMember } from './memberOrigins';
import { macroStatementLeaves } from './macroStatements';
import { neverReturns } from './noReturnCalls';
import { labelledStatement, labelSegments } from './labelledStatements';
import { bareBlockStatements } from './bareBlocks';
import { governsNext } from './governedStatements';
import { SubtreeIndex } from './subtreeIndex';
import { apartFromPrints as apartFromPrintsOf, standardPrint } from './standardPrints';
import { readingObserver } from './readings';
import { withStaticCalls } from './staticReturns';
import { hasEffects, readsOnly, statementCall, writeStep, type CContext, type CWrapper } from './writes';

/** Reads one function body into blocks. */
class FunctionReader {
  readonly blocks: Block[] = [];
  /** Writes that open the block of a body, by the body's first statement (see successBodies.ts). */
  private readonly leads = new Map<number, WriteStep>();

  constructor(
    private readonly ctx: CContext,
    private readonly locals: ReadonlySet<string>,
    private readonly changes: SubtreeIndex,
    /** Locals and parameters of a scalar type: a call is given a copy of them and cannot change them. */
    private readonly scalars: ReadonlySet<string> = new Set(),
    /** Names whose address the function takes: a call may read them through the pointer. */
    private readonly addressed: ReadonlySet<string> = new Set(),
    /** Pointers to `const` bytes: a call given one cannot change what it points at (constPointees.ts). */
    private readonly readOnlyPointers: ReadonlySet<string> = new Set(),
    /** Names that may point into other names' bytes, with those names (see bufferAliases.ts). */
    private readonly pointsInto: ReadonlyMap<string, ReadonlySet<string>> = new Map(),
    /** Pointers declared from another name's member, with that name (see objectPointers). */
    private readonly reaches: ReadonlyMap<string, ReadonlySet<string>> = new Map(),
  ) {}

  /** Reads a statement list into a block (and the blocks nested in it), returning its steps. */
  block(listed: readonly Node[]): Step[] {
    // A bare `{ }` block's statements are the list's own (see bareBlocks.ts).
    const statements = bareBlockStatements(listed);
    // A label cuts the list into blocks of their own (see labelledStatements.ts); the steps returned
    // (one per statement, for an arm or a loop body) keep each label a barrier.
    const segments = labelSegments(statements);
    if (!segments) return this.segment(statements);
    const steps = segments.flatMap((segment) => this.segment(segment));
    return statements.map((stmt, i) => (labelledStatement(stmt) ? this.barrier(stmt) : steps[i]!));
  }

  /** Reads a statement list no label enters into one block. */
  private segment(statements: readonly Node[]): Step[] {
    // A braced body is a block of its own already: its runs are one pass's, and none crosses it.
    // `n = write(...); if (n != len) A; else B;`: the if/else is the step of both (see keptElses.ts),
    // and the statement that keeps the result an empty step before it.
    const keptBefore = new Set<number>();
    const steps = statements.map((stmt, i) => {
      if (i > 0 && governsNext(statements[i - 1]!) && stmt.type !== 'compound_statement')
        return this.barrier(stmt);
      const kept = i > 0 ? keptElseStep(statements[i - 1]!, stmt, this.ctx, this.armReader()) : undefined;
      if (kept) keptBefore.add(i - 1);
      return kept ?? leaving(this.step(stmt), this.ctx);
    });
    for (const k of keptBefore) steps[k] = commentStep(this.span(statements[k]!));
    // `ret = write(...);` and the checks of ret after it are one write; the checks become empty steps
    // (the steps stay one per statement, as loops read them).
    for (let i = 0; i < statements.length; i++) {
      if (steps[i]?.kind === 'write' || keptBefore.has(i)) continue;
      // `n = write(...); n += write(...); if (n != la + lb)`: the writes summed are one step.
      const checked =
        summedWrites(statements, i, this.ctx) ??
        resultChecked(statements, i, this.ctx, {
          locals: this.locals,
          addressed: this.addressed,
        });
      if (!checked) continue;
      steps[i] = checked.step;
      for (let k = 1; k < checked.covers; k++) {
        const check = statements[i + k]!; // resultChecked covers statements that exist
        steps[i + k] = commentStep(this.span(check));
      }
      i += checked.covers - 1;
    }
    // `x = f(y);` of a function whose body is unread, then a write of x: f is taken as an argument call.
    assumedResults(statements, steps, this.locals, this.scalars, this.ctx);
    // Calls of functions returning static storage, which a later call overwrites (see staticReturns.ts).
    const statics = this.ctx.staticReturns;
    if (statics) {
      for (let i = 0; i < statements.length; i++)
        steps[i] = withStaticCalls(steps[i]!, statements[i]!, this.ctx.text, statics, this.ctx.staticSenders);
    }
    if (statements.length > 0) {
      const lead = this.leads.get(statements[0]!.id);
      this.blocks.push({
        steps: lead ? [lead, ...steps] : steps,
        locals: this.locals,
        indent: indentAt(this.ctx.text, statements[0]!.startIndex),
      });
    }
    return steps;
  }

  private span(node: Node) {
    return { start: node.startIndex, end: node.endIndex };
  }

  private barrier(node: Node): OtherStep {
    return barrierStep(this.span(node));
  }

  /** The function's streams a standard print cannot reach, found once (see standardPrints.ts). */
  private apart: ReadonlySet<string> | undefined;

  private apartFromPrints(): ReadonlySet<string> {
    return (this.apart ??= apartFromPrintsOf(this.ctx.streams));
  }

  /** The statements of a body: the children of a `{ }` block, or the single statement itself. */
  private body(node: Node | null): readonly Node[] {
    if (!node) return [];
    return node.type === 'compound_statement' ? bareBlockStatements(namedKids(node)) : [node];
  }

  private step(stmt: Node): Step {
    if (stmt.type === 'comment') return commentStep(this.span(stmt));
    // `if (0) ...` and `#if 0`: never compiled to run, so as inert as a comment.
    if (deadStatement(stmt)) return commentStep(this.span(stmt));
    // `#define S "\n"` / `#undef S`: no statement at run time, a new meaning of one name after it.
    const directive = definingDirectiveStep(stmt, this.span(stmt));
    if (directive) return directive;
    // `if (write(fd, b, n) == n) ret = 0;`: a body that only records the success is no block of its own.
    const recorded = stmt.type === 'if_statement' ? successStatusStep(stmt, this.ctx) : undefined;
    if (recorded) return recorded;
    // `if (put(fd, a) == 0) { ... }` of a helper returning 0 on success: its body is the success path,
    // read as a block the test's write opens, not as the write's failure handling.
    const lead = stmt.type === 'if_statement' ? successLead(stmt, this.ctx) : undefined;
    if (lead) return this.branch(stmt, lead);
    if (stmt.type === 'expression_statement' || stmt.type === 'if_statement') {
      const call = statementCall(stmt, this.ctx);
      // A write whose arguments call something that may do I/O can still open a run (see argumentCalls).
      const write = call && (writeStep(stmt, call, this.ctx) ?? writeStep(stmt, call, this.ctx, true));
      if (write) return write;
      // `if ((i = htonl(n), write(fd, &i, 4)) != 4)`: the write a comma expression ends in.
      const comma = call ? undefined : commaStep(stmt, this.ctx);
      if (comma) return comma;
    }
    // `CHAIN(e, put(fd, s));`, a macro gating the write on an earlier one's success.
    if (stmt.type === 'expression_statement') {
      const write = gatedStep(stmt, this.ctx);
      if (write) return write;
    }
    if (stmt.type === 'if_statement' || stmt.type === 'return_statement') {
      const write =
        chainStep(stmt, this.ctx) ??
        // Before conditionalStep: `if (wr > 0) write(...)` right after `wr = write(...)` is gated on it.
        gatedStep(stmt, this.ctx) ??
        conditionalStep(stmt, this.ctx, this.locals) ??
        elseChainStep(stmt, this.ctx) ??
        returnStep(stmt, this.ctx) ??
        returnedStep(stmt, this.ctx);
      if (write) return write;
    }
    // `if (write(fd, b, n) < 0) return -1; else sent += n;`: the else arm is the write's success path.
    const checked = checkedElseStep(stmt, this.ctx, this.armReader());
    if (checked) return checked;
    if (stmt.type === 'while_statement') {
      const write = retriedStep(stmt, this.ctx);
      if (write) return write;
    }
    // `ok = put(a) && put(b);`
    if (stmt.type === 'expression_statement' && stmt.namedChild(0)?.type === 'assignment_expression') {
      const write =
        chainStep(stmt, this.ctx) ?? accumulatedStep(stmt, this.ctx) ?? talliedStep(stmt, this.ctx);
      if (write) return write;
    }
    // `int ok = put(a) && put(b);` and `int bad = write(...) != n;` (opening an accumulation), as the
    // plain assignments are.
    if (stmt.type === 'declaration') {
      const write = chainStep(stmt, this.ctx) ?? accumulatedStep(stmt, this.ctx);
      if (write) return write;
    }
    switch (stmt.type) {
      case 'expression_statement':
      case 'declaration':
        return this.summary(stmt);
      case 'if_statement':
        return this.branch(stmt);
      case 'for_statement':
      case 'while_statement':
      case 'do_statement':
        return this.loop(stmt);
      case 'compound_statement':
        this.block(namedKids(stmt));
        return this.barrier(stmt);
      case 'labeled_statement':
      case 'case_statement':
        this.nested(stmt);
        return this.barrier(stmt);
      case 'switch_statement':
        return this.switchBranch(stmt);
      case 'break_statement':
      case 'continue_statement':
      case 'goto_statement':
      case 'return_statement':
        // Only an if/else arm's leave: a switch's cases keep their own reading (see openSwitches.ts).
        return leavesQuietly(stmt) && inIfArm(stmt)
          ? { ...this.barrier(stmt), quietLeave: true }
          : this.barrier(stmt);
      case 'preproc_if':
      case 'preproc_ifdef':
        return this.preprocBranch(stmt);
      default:
        this.nested(stmt);
        return this.barrier(stmt);
    }
  }

  /** How the readers of a checked write's else (checkedElses.ts, keptElses.ts) read its arms. */
  private armReader(): ArmReader {
    return {
      arm: (statements, lead) => {
        if (lead && statements[0]) this.leads.set(statements[0].id, lead);
        return this.arm(statements);
      },
      block: (statements) => void this.block(statements),
      body: (node) => this.body(node),
    };
  }

  /** Reads the `{ }` blocks anywhere under a statement the analyzer treats as opaque. */
  private nested(stmt: Node): void {
    for (const child of namedKids(stmt)) {
      if (child.type === 'compound_statement') this.block(namedKids(child));
      else if (child.type.endsWith('_statement')) this.step(child);
    }
  }

  /**
   * An if/else: a branch step when it is an exhaustive chain, otherwise a barrier. `lead`: the write
   * the test checks for success, which opens the run of the body (see successBodies.ts).
   */
  private branch(stmt: Node, lead?: WriteStep): Step {
    const first = lead && this.body(stmt.childForFieldName('consequence'))[0];
    if (lead && first) this.leads.set(first.id, lead);
    // `else if (mode == 2 && write(fd, p, n) != n) return -1;`: an else-if whose test does more than
    // read is the else arm's one statement (`else { if (...) ... }`, which C makes it anyway), read as
    // a step of that arm (a write, a gated write) rather than as a test the whole chain runs first.
    const chained = (next: Node | null | undefined): next is Node => {
      const test = next?.type === 'if_statement' ? next.childForFieldName('condition') : null;
      return !!test && readsOnly(test, this.ctx.pure);
    };
    const { arms, exhaustive } = ifChainArms(
      stmt,
      (at) => {
        const next = at.childForFieldName('alternative')?.namedChild(0);
        const then = this.body(at.childForFieldName('consequence'));
        if (!next) return { then };
        return chained(next) ? { then, elseIf: next } : { then, else: this.body(next) };
      },
      (statements) => this.arm(statements),
    );
    const cond = stmt.childForFieldName('condition');
    if (stmt.hasError || !cond) return this.barrier(stmt);
    // `if (put(fd, b) == 0) { put(fd, c); }` after `put(fd, a)`: the test's write opens the arm, so
    // the writes before the if can run on into it (see successBodies.ts).
    const opened = lead && successBranch(this.span(stmt), cond, lead, arms, [...identifiers(cond)]);
    if (opened) return opened;
    // Every test of the chain runs before (or between) the arms' writes: all must only read.
    const tests: Node[] = [];
    for (let at: Node | null = stmt; at?.type === 'if_statement';) {
      const test = at.childForFieldName('condition');
      if (test) tests.push(test);
      const next: Node | null | undefined = at.childForFieldName('alternative')?.namedChild(0);
      at = chained(next) ? next : null;
    }
    const pure = tests.every((t) => readsOnly(t, this.ctx.pure));
    const names = new Set<string>();
    for (const t of tests) identifiers(t, names);
    const read = [...names];
    if (exhaustive && pure) return { kind: 'branch', span: this.span(stmt), arms, tests: read };
    // An `if` without `else` (or an else-if chain without one): writes at the ends of its arms may join
    // writes around it. A test with effects runs before the arms, so only the arms' last writes may.
    const body = stmt.childForFieldName('consequence');
    const exit = pure && arms.length === 1 && leavesQuietly(body);
    const exitLast = pure && arms.length === 1 && !exit && endsLeavingQuietly(body);
    // The tests' effects as one statement, for a branch that may only compute (see computingBranch.ts).
    const effects = pure ? undefined : tests.map((t) => this.summary(t));
    return {
      kind: 'branch',
      span: this.span(stmt),
      arms,
      tests: read,
      partial: {
        condition: cond.text,
        opaque: !pure || undefined,
        testEffects: effects,
        exhaustive: exhaustive || undefined,
        exit: exit ? { reads: this.variables(cond) } : undefined,
        exitLast: exitLast ? { reads: this.variables(cond) } : undefined,
      },
    };
  }

  /**
   * The names `cond` reads, but for constants no statement can change (`KIND_LAST` in `kind ==
   * KIND_LAST`: see constantNames.ts) the function does not declare a name of its own over: an early
   * exit's test that compares with one reads only what its other names hold.
   */
  private variables(cond: Node): string[] {
    const names = [...identifiers(cond)];
    const constant = this.ctx.constant;
    return constant ? names.filter((n) => this.locals.has(n) || !constant(n)) : names;
  }

  /**
   * `#if`/`#ifdef` around statements: one configuration compiles one group, so it reads as a branch
   * whose tests only read (never rewritten: a fix would have to edit every configuration).
   */
  private preprocBranch(stmt: Node): Step {
    const arms: Arm[] = [];
    let exhaustive = false;
    // `#if 0` keeps code out of every configuration, and after `#if 1` no other group is compiled:
    // what they hold is never run, so it is not read (no arm).
    let taken = false;
    for (let at: Node | null = stmt; at;) {
      const alternative: Node | null = at.childForFieldName('alternative');
      const skip = [at.childForFieldName('condition'), at.childForFieldName('name'), alternative];
      const value =
        at.type === 'preproc_ifdef' ? undefined : constantCondition(at.childForFieldName('condition'));
      const dead = taken || value === 0;
      if (value !== undefined && value !== 0) taken = true;
      if (!dead) {
        arms.push(this.arm(namedKids(at).filter((n) => !skip.some((k) => k?.equals(n)))));
        if (at.type === 'preproc_else') exhaustive = true;
      }
      at = alternative;
    }
    if (stmt.hasError) return this.barrier(stmt);
    const test = stmt.childForFieldName('condition') ?? stmt.childForFieldName('name');
    return {
      kind: 'branch',
      span: this.span(stmt),
      arms,
      partial: { condition: `(${test?.text ?? 'configured'})`, exhaustive: exhaustive || undefined },
    };
  }

  /**
   * A switch: a branch step when no case but the last leaves for elsewhere, with no `break` inside a
   * case that could skip its end; empty cases and cases without `break` fall through to the next (see
   * switchCases.ts). With a `default` one arm always runs; without one it is an else-if chain without
   * `else` (see {@link partialSwitch}).
   */
  private switchBranch(stmt: Node): Step {
    const body = stmt.childForFieldName('body');
    // Labels under `#if`, braced cases and fall-through read as a reader sees them (switchCases.ts).
    const cases = body ? switchCases(body) : undefined;
    if (!cases) {
      // Still a barrier, but the runs within each case are found in the case's own block.
      // Whole cases under `#if` too (directiveCases.ts).
      for (const c of (body ? namedKids(body) : []).flatMap((k) => [k, ...directiveCases(k)])) {
        const value = c.type === 'case_statement' ? c.childForFieldName('value') : undefined;
        if (c.type === 'case_statement') this.arm(namedKids(c).filter((n) => !value || !n.equals(value)));
      }
      return this.barrier(stmt);
    }
    const {
      arms: read,
      exhaustive,
      closed,
    } = caseArms(
      cases,
      (n) => n.type === 'break_statement' || n.descendantsOfType('break_statement').length > 0,
      (statements) => this.arm(statements),
    );
    const value = stmt.childForFieldName('condition');
    if (stmt.hasError || !value) return this.barrier(stmt);
    // Each arm's test, where the cases say it (caseTests.ts).
    const arms = closed && body ? withCaseTests(cases, read, value, body, this.ctx.text) : read;
    if (closed && !exhaustive && arms.length > 0)
      return partialSwitch(this.span(stmt), arms, value, this.ctx.pure);
    if (!exhaustive || arms.length < 2) return this.barrier(stmt);
    return { kind: 'branch', span: this.span(stmt), arms, tests: [...identifiers(value)] };
  }

  private arm(listed: readonly Node[]): Arm {
    const statements = bareBlockStatements(listed);
    const declares = statements
      .filter((s) => s.type === 'declaration')
      .flatMap((d) => d.childrenForFieldName('declarator').map((x) => declaredName(x)))
      .filter((n): n is string => n !== undefined);
    return { steps: this.block(statements), declares };
  }

  private loop(stmt: Node): Step {
    const statements = this.body(stmt.childForFieldName('body'));
    const body = this.block(statements);
    const header = namedKids(stmt).filter((n) => !n.equals(stmt.childForFieldName('body') as Node));
    // What changes per iteration: the header's effects and the body's, except the writes' own arguments.
    const varying = new Set<string>();
    const mutated = new Set<string>();
    for (const part of header) this.changed(part, varying, undefined, mutated);
    // body holds one step per statement.
    statements.forEach(
      (s, i) =>
        body[i]!.kind !== 'write' &&
        this.changed(s, varying, undefined, mutated, undefined, this.changes.within(s)),
    );
    const impure = header.some((part) => calls(part).some((c) => !this.ctx.pure.has(calleeName(c) ?? '')));
    if (impure || stmt.hasError) return this.barrier(stmt);
    return {
      kind: 'loop',
      span: this.span(stmt),
      body,
      varying: [...varying],
      mutated: [...mutated],
      // A header reading a write's result (`off += nw`) finishes one write (shapes/loops.ts).
      tests: [...header.reduce((names, part) => identifiers(part, names), new Set<string>())],
      ...slicesOf(stmt, body),
      ...this.computingLoop(stmt, body),
    };
  }

  /**
   * The loop as one statement when it only computes (see LoopStep.computation): its body holds no
   * write, nothing in it leaves the function, and its summary calls nothing that may do output.
   */
  private computingLoop(stmt: Node, body: readonly Step[]): { computation?: OtherStep } {
    const computes = (steps: readonly Step[]): boolean =>
      steps.every((s) =>
        s.kind === 'other'
          ? !s.barrier
          : s.kind === 'branch'
            ? s.arms.every((a) => computes(a.steps))
            : s.kind === 'loop' && !!s.computation,
      );
    if (!computes(body) || stmt.descendantsOfType(LEAVING).length > 0) return {};
    const whole = this.summary(stmt);
    if (whole.barrier || (whole.calls.length > 0 && whole.output !== false)) return {};
    return { computation: whole };
  }

  /** Adds the names `node` may change to `into`: assigned, incremented, address taken, passed to calls. */
  private changed(
    node: Node,
    into: Set<string>,
    callees?: string[],
    mutated?: Set<string>,
    members?: { paths: Set<string>; whole: Set<string> },
    found: readonly (Node | null)[] = node.descendantsOfType(CHANGE_KINDS),
    reached?: { paths: Set<string>; whole: Set<string> },
    given?: { paths: Set<string>; whole: Set<string> },
  ): void {
    // `p = p->next` rebinds p; `p->len = 0`, `&buf` and call arguments may change what p points at.
    // `confined`: a call handed `&c->ctx` whose body reaches that parameter only through members
    // changes that member of c, not the rest of c (see memberParameters.ts).
    const add = (
      n: Node | null,
      contents: boolean,
      assigned = false,
      handed = false,
      confined = false,
    ): void => {
      const root = n ? rootName(n) : undefined;
      // `(char *)(buf + off)`: a pointer into buf (see offsetBases.ts).
      if (!root) {
        if (n) for (const base of offsetBases(n, this.scalars)) add(base, true);
        return;
      }
      into.add(root);
      if (contents || (n && unwrap(n).type !== 'identifier')) {
        mutated?.add(root);
        // A change through a copy of a pointer (`p[0] = 'S'` after `p = (char *)val`) changes val.
        for (const source of this.pointsInto.get(root) ?? []) {
          into.add(source);
          mutated?.add(source);
          reached?.whole.add(source);
        }
        // A call handed a pointer that reaches another name's object may change anything it reaches.
        if (handed)
          for (const source of this.reaches.get(root) ?? []) {
            into.add(source);
            mutated?.add(source);
            reached?.whole.add(source);
          }
        // Through a member (`ddf->phys->crc = c`, `crc(&ddf->controller)`), or anywhere in root.
        const at = n && addressed(n);
        const path = at && memberPath(at);
        if (path) reached?.paths.add(path);
        else reached?.whole.add(root);
      }
      // `ctx->count = 0` changes one member; anything else may change any part of the variable.
      const path = (assigned || confined) && n ? memberPath(confined ? addressed(n) : n) : undefined;
      if (path) members?.paths.add(path);
      else members?.whole.add(root);
    };
    for (const n of found) {
      if (!n) continue;
      switch (n.type) {
        case 'assignment_expression':
          add(n.childForFieldName('left'), false, true);
          break;
        case 'update_expression':
          add(n.childForFieldName('argument'), false, true);
          break;
        case 'pointer_expression':
          // `&c->ctx` handed to a call whose body reaches that parameter through members only is the
          // call's to judge (below), not an address that may let anything change c.
          if (n.child(0)?.type === '&' && !this.confinedArgument(n))
            add(n.childForFieldName('argument'), true);
          break;
        case 'init_declarator':
          add(n.childForFieldName('declarator'), false);
          break;
        case 'call_expression': {
          const name = calleeName(n);
          // A pure function changes none of its arguments (`strlen(name)` leaves name as it was).
          if (this.ctx.pure.has(name ?? '')) break;
          if (callees) callees.push(name ?? '(call)');
          const args = namedKids(n.childForFieldName('arguments') as Node);
          // A checksum or digest with no body in reach (zlib's `crc32(crc, buf, n)`) reads its data: only
          // its first argument, a running state or the result's place, may change.
          const readOnly = name
            ? (this.ctx.readOnly?.(name) ?? (digestName(name) ? afterFirst(args.length) : undefined))
            : undefined;
          // The variables its body assigns, whatever it is handed (`refill()` rewriting a global buffer).
          for (const global of (name && this.ctx.assigns?.(name)) || []) {
            into.add(global);
            mutated?.add(global);
            reached?.whole.add(global);
            members?.whole.add(global);
          }
          // What the call is handed, as member paths where it is handed members only (see
          // memberParameters.ts): a call handed `c->key` or `&c->ctx` is not handed the descriptor at
          // `c->fd`, nor is one handed `c` whose body reaches that parameter only through other members.
          const confined = name ? this.ctx.memberParams?.(name) : undefined;
          if (given) args.forEach((arg, k) => handedParts(arg, confined?.get(k), given));
          const changing = C_FIRST_ARGUMENT_FILLERS.test(name ?? '') ? args.slice(0, 1) : args;
          changing.forEach((arg, k) => {
            const value = unwrap(arg);
            const touched = confined?.get(k);
            if (touched && value.type === 'identifier') {
              // The body changes these members of what it is handed, and nothing else of it.
              into.add(value.text);
              mutated?.add(value.text);
              // What the pointer was copied from or reaches is changed as a whole, as before.
              for (const source of [
                ...(this.pointsInto.get(value.text) ?? []),
                ...(this.reaches.get(value.text) ?? []),
              ]) {
                into.add(source);
                mutated?.add(source);
                reached?.whole.add(source);
              }
              for (const m of touched) {
                reached?.paths.add(`${value.text}->${m}`);
                members?.paths.add(`${value.text}->${m}`);
              }
              return;
            }
            // `crc(buf, n)` cannot change n: C passes it by value; nor buf, when crc takes a `const` pointer.
            if (
              readOnly?.has(k) ||
              (value.type === 'identifier' &&
                (this.scalars.has(value.text) || this.readOnlyPointers.has(value.text)))
            )
              return;
            add(value, true, false, true, touched !== undefined);
          });
          break;
        }
      }
    }
  }

  /**
   * True when `arg` is an argument of a call whose body reaches that parameter only through members
   * (see memberParameters.ts).
   */
  private confinedArgument(arg: Node): boolean {
    const list = arg.parent;
    const call = list?.type === 'argument_list' ? list.parent : null;
    const name = call?.type === 'call_expression' ? calleeName(call) : undefined;
    const confined = name ? this.ctx.memberParams?.(name) : undefined;
    if (!confined || !list) return false;
    const index = namedKids(list).findIndex((k) => k.equals(arg));
    return confined.has(index);
  }

  /** An expression statement or declaration that is not a write: what it reads and may change. */
  private summary(stmt: Node): OtherStep {
    if (stmt.hasError) return this.barrier(stmt);
    // A name alone as a statement does nothing in C: it is a macro (`INT_ON;`) that may do anything.
    if (stmt.type === 'expression_statement' && stmt.namedChild(0)?.type === 'identifier')
      return this.barrier(stmt);
    // `RETURN(611);`: a macro that may leave (see macroStatementLeaves).
    const alone = stmt.type === 'expression_statement' ? stmt.namedChild(0) : null;
    if (
      alone?.type === 'call_expression' &&
      macroStatementLeaves(calleeName(alone) ?? '', this.ctx.text, this.ctx.included)
    )
      return this.barrier(stmt);
    const writes = new Set<string>();
    const mutated = new Set<string>();
    const callees: string[] = [];
    const members = { paths: new Set<string>(), whole: new Set<string>() };
    const reached = { paths: new Set<string>(), whole: new Set<string>() };
    // One list serves the three questions below, read from the function's one search (see SubtreeIndex).
    const found = this.changes.within(stmt);
    const given = { paths: new Set<string>(), whole: new Set<string>() };
    this.changed(stmt, writes, callees, mutated, members, found, reached, given);
    if (stmt.type === 'declaration') {
      for (const d of stmt.childrenForFieldName('declarator')) {
        const name = declaredName(d);
        if (name) writes.add(name);
      }
    }
    // Calls that print only to a standard stream: not a barrier, but output a run may cross only to a
    // descriptor they cannot reach (see standardPrints.ts).
    const prints = new Set<string>();
    for (const call of found) {
      if (call.type !== 'call_expression') continue;
      const name = calleeName(call);
      if (name && standardPrint(call)) {
        prints.add(name);
        continue;
      }
      // An unnamed callee (a function pointer), a known writer or anything named like I/O: unsure.
      if (
        !name ||
        // A body the fact base read says more than a name: `log2_ceil` computes, `emit_log` may print.
        (ioName(name) && !this.ctx.quiet(name)) ||
        this.ctx.functions.has(name) ||
        this.ctx.wrappers.has(name) ||
        this.ctx.macros?.has(name) ||
        // Waiting between two writes splits them on purpose, whatever the descriptor, and so does a
        // change of a terminal's settings by ioctl() (see terminalRequests.ts).
        waitingCall(call) ||
        this.ctx.waits?.(name) ||
        // A wait for a descriptor to take output: for another descriptor than the written one, a wait
        // like any other; handed the written one, a call given the descriptor, which ends the run too.
        this.ctx.writableWaits?.(name) !== undefined
      ) {
        return this.barrier(stmt);
      }
    }
    const setsGlobal = found.some((a) => {
      if (a.type !== 'assignment_expression') return false;
      const root = a.childForFieldName('left');
      const name = root ? rootName(root) : undefined;
      return a.childForFieldName('operator')?.text === '=' && name !== undefined && !this.locals.has(name);
    });
    const loud = callees.filter((name) => !this.ctx.quiet(name));
    const summary = summaryStep(this.span(stmt), identifiers(stmt), writes, callees, {
      output: loud.length > 0,
      setsGlobal,
    });
    const memberOnly = [...members.paths].filter((p) => !members.whole.has(/^\w+/.exec(p)?.[0] ?? ''));
    const mutatedPaths = [...reached.paths].filter((p) => !reached.whole.has(/^\w+/.exec(p)?.[0] ?? ''));
    const frees = found.flatMap((call) => {
      if (call.type !== 'call_expression' || !freesFirstArgument(calleeName(call) ?? '')) return [];
      const first = call.childForFieldName('arguments')?.namedChild(0);
      return first ? [...identifiers(first)] : [];
    });
    return {
      ...summary,
      // Still a barrier to every shape but a run to a descriptor the prints cannot reach (quiet()).
      ...(prints.size > 0 && { barrier: true }),
      ...(prints.size > 0 &&
        loud.every((name) => prints.has(name)) && { printsApart: this.apartFromPrints() }),
      mutated: [...mutated],
      members: memberOnly.length > 0 ? memberOnly : undefined,
      ...(mutatedPaths.length > 0 && { mutatedPaths }),
      ...(frees.length > 0 && { frees }),
      ...(callees.length > 0 && { handed: handedList(given) }),
    };
  }
}

/** What may change names in a statement: assignments, increments, address-taking, calls, declarations. */
const CHANGE_KINDS = [
  'assignment_expression',
  'update_expression',
  'pointer_expression',
  'call_expression',
  'init_declarator',
];

/**
 * A write through a helper that never returns (`if (argc < 2) die("usage\n");` of a `die` that writes
 * and exits, see noReturnCalls.ts) leaves the function as `return write(...)` does: no write follows
 * it on its path, and the next `die(...)` runs only where this one did not. Only a helper's or a
 * macro's body is asked: the C library's writers return.
 */
function leaving(step: Step, ctx: CContext): Step {
  if (step.kind !== 'write' || step.leaves || step.chain || !step.wrapper) return step;
  if (!neverReturns(step.wrapper.name, ctx)) return step;
  return { ...step, leaves: true };
}

/** Statements that leave the function (or jump out of the loop they are in, to anywhere). */
const LEAVING = ['return_statement', 'goto_statement'];

/** True when `stmt` is an arm of an if/else: its body, or the one statement of its `{ }` body. */
function inIfArm(stmt: Node): boolean {
  let up = stmt.parent;
  if (up?.type === 'compound_statement') up = up.parent;
  return up?.type === 'if_statement' || up?.type === 'else_clause';
}

/** A body that only leaves the block (`return`, `return 0`, `goto out`, `break`): no call on the way. */
function leavesQuietly(body: Node | null): boolean {
  const stmts = body?.type === 'compound_statement' ? namedKids(body) : body ? [body] : [];
  const stmt = stmts[0];
  if (stmts.length !== 1 || !stmt) return false;
  if (['goto_statement', 'break_statement', 'continue_statement'].includes(stmt.type)) return true;
  return stmt.type === 'return_statement' && calls(stmt).length === 0 && !hasEffects(stmt);
}

/** A `{ }` body of two statements or more whose last one leaves as {@link leavesQuietly} says. */
function endsLeavingQuietly(body: Node | null): boolean {
  if (body?.type !== 'compound_statement') return false;
  const stmts = namedKids(body).filter((n) => n.type !== 'comment');
  return stmts.length >= 2 && leavesQuietly(stmts[stmts.length - 1]!);
}

/** `a.b`, `a->b.c` (members all the way down to a variable), canonical; undefined for anything else. */
/** The operand of `&x` (the memory a pointer to it reaches), or the node itself. */
function addressed(node: Node): Node {
  const at = unwrap(node);
  const arg =
    at.type === 'pointer_expression' && at.child(0)?.type === '&' ? at.childForFieldName('argument') : null;
  return arg ? unwrap(arg) : at;
}

/**
 * Adds what a call argument hands the callee to `given`: the member path of `c->key` or `&c->ctx`; for
 * a name whose parameter the callee reaches only through `touched` members, those members' paths; for
 * anything else, every name in it, whole.
 */
function handedParts(
  arg: Node,
  touched: readonly string[] | undefined,
  given: { paths: Set<string>; whole: Set<string> },
): void {
  const at = addressed(arg);
  const path = memberPath(at);
  if (path) {
    given.paths.add(path);
    return;
  }
  if (at.type === 'identifier' && touched) {
    for (const m of touched) given.paths.add(`${at.text}->${m}`);
    return;
  }
  for (const n of identifiers(at)) given.whole.add(n);
}

/** The paths and whole names a statement's calls are handed (see OtherStep.handed), sorted. */
function handedList(given: { paths: Set<string>; whole: Set<string> }): string[] {
  const paths = [...given.paths].filter((p) => !given.whole.has(/^\w+/.exec(p)?.[0] ?? ''));
  return [...paths, ...given.whole].sort();
}

function memberPath(node: Node): string | undefined {
  return unwrap(node).type === 'field_expression' ? lvaluePath(node) : undefined;
}

/** The local names of a function: its parameters and every variable declared in its body. */
function localsOf(fn: Node): Set<string> {
  const locals = new Set<string>();
  for (const name of parameterNames(fn)) if (name) locals.add(name);
  for (const decl of fn.descendantsOfType('declaration')) {
    for (const d of decl?.childrenForFieldName('declarator') ?? []) {
      const name = declaredName(d);
      if (name) locals.add(name);
    }
  }
  return locals;
}

/**
 * The names whose address an expression in the function takes (`&n` anywhere): a call may read them
 * behind the function's back. `found` is the function's change-kind nodes.
 */
function addressedIn(found: readonly (Node | null)[]): Set<string> {
  const addressed = new Set<string>();
  for (const n of found) {
    if (n?.type !== 'pointer_expression' || n.child(0)?.type !== '&') continue;
    const arg = n.childForFieldName('argument');
    const root = arg ? rootName(arg) : undefined;
    if (root) addressed.add(root);
  }
  return addressed;
}

/** Type specifiers of scalars: numbers, characters, enums (`size_t`, `uint32_t` are primitive types too). */
const SCALAR_TYPES: ReadonlySet<string> = new Set([
  'primitive_type',
  'sized_type_specifier',
  'enum_specifier',
]);

/**
 * The parameters and locals of `fn` declared with a scalar type and a plain name (not a pointer, not an
 * array): passed to a call, they are copied. A name also declared any other way (a shadowing block
 * variable) is left out.
 */
function scalarsOf(fn: Node): Set<string> {
  const scalar = new Set<string>();
  const other = new Set<string>();
  for (const decl of declarationsOf(fn)) {
    const simple = SCALAR_TYPES.has(decl.childForFieldName('type')?.type ?? '');
    for (const d of decl.childrenForFieldName('declarator')) {
      if (!d) continue;
      const plain =
        d.type === 'identifier' ? d : d.type === 'init_declarator' ? d.childForFieldName('declarator') : null;
      if (simple && plain?.type === 'identifier') scalar.add(plain.text);
      else {
        const name = declaredName(d);
        if (name) other.add(name);
      }
    }
  }
  for (const name of other) scalar.delete(name);
  return scalar;
}

/**
 * The byte streams of function `fn`: its own and the file's (functionStreams), the members the file
 * fills with streams only (memberStreamTargets), less the descriptors the function drives with device
 * `ioctl()` requests, in it or, for a global, anywhere in the file (a file opened and then set up as a
 * bus or a device: one write, one command).
 */
function streamsOf(
  fn: Node,
  text: string,
  declared: ReadonlySet<string>,
  locals: ReadonlySet<string>,
  file: FileStreams,
  messages: MessageDescriptors | undefined,
  wrappers: ReadonlyMap<string, CWrapper> = new Map(),
  scanned: string = fn.text,
): ReadonlySet<string> {
  const streams = functionStreams(fn, declared, file, locals);
  const body = fn.childForFieldName('body');
  // A member the file also shows to keep message boundaries (a datagram socket or a device request
  // at that member name, of the same struct where both are known) stays a message descriptor, as it
  // was before its streams were read.
  for (const t of memberStreamTargets(file.members, scanned, text))
    if (!messages || !isMessageDescriptor(t, messages)) streams.add(t);
  if (file.pairArrays && file.pairArrays.size > 0 && body)
    for (const t of helperElements(body, wrappers, file.pairArrays)) streams.add(t);
  for (const t of deviceDescriptors(fn.text)) streams.delete(t);
  // A global the file drives with device requests in another function is that device here too.
  for (const t of fileDeviceDescriptors(text)) if (!locals.has(/^\w+/.exec(t)?.[0] ?? '')) streams.delete(t);
  return streams;
}

/** Plain writes, which need to know where their descriptor comes from. */
export const PLAIN_WRITE = /\b(write|send|sendto)\s*\(/;

/**
 * The calls that make one plain write each in `ctx`: `write(`, `send(`, and the helpers and macros that
 * make one (their descriptors need their origins read, as a plain write's do).
 */
export function plainWritePattern(ctx: Pick<CContext, 'functions' | 'wrappers' | 'macros'>): RegExp {
  const names = ['write', 'send', 'sendto'];
  // A helper writing with the function it is given may be handed a plain write (see passedWriters.ts).
  for (const w of ctx.wrappers.values()) if (w.messages || w.mode !== undefined) names.push(w.name);
  for (const m of ctx.macros?.values() ?? []) if (ctx.functions.get(m.callee)?.messages) names.push(m.name);
  return names.length === 3 ? PLAIN_WRITE : new RegExp(`\\b(${names.join('|')})\\s*\\(`);
}

/**
 * Reads one function definition into blocks (none for a declaration-like or body-less one). With
 * `file`, plain `write`/`send` calls count on descriptors the function or file shows to be streams.
 */
export function readFunction(fn: Node, ctx: CContext, file?: FileStreams): Block[] {
  const body = fn.childForFieldName('body');
  if (!body || body.type !== 'compound_statement') return [];
  const locals = localsOf(fn);
  if (file && (ctx.plainWrites ?? PLAIN_WRITE).test(body.text)) {
    const declared = new Set(locals);
    for (const name of parameterNames(fn)) if (name) declared.delete(name);
    const name = functionName(fn);
    const params = parameterNames(fn).filter((n): n is string => !!n);
    // With the members its helper calls write to, which its text does not spell (reachedMembers.ts).
    const reached = reachedMembers(body, ctx.wrappers);
    const scanned = reached.length > 0 ? `${fn.text}\n${reached.join(';\n')};` : fn.text;
    let messages =
      file.messages &&
      messagesIn(
        file.messages,
        scanned,
        declared,
        params,
        () => !name || usedInFile(ctx.text, name),
        ctx.text,
        ownStreamMember(file.members),
      );
    // A parameter some caller of the file hands a message socket is one here (see messageParameters.ts).
    const handed = name !== undefined ? file.messageParameters?.get(name) : undefined;
    if (messages && handed) messages = { ...messages, targets: new Set([...messages.targets, ...handed]) };
    // The file's own stream assignments decide over other files' member facts (messagesIn adds those
    // to the function's targets): only the struct exemptions are taken from the function's reading.
    const fileMessages =
      file.messages && messages?.otherStructs
        ? { ...file.messages, otherStructs: messages.otherStructs }
        : file.messages;
    ctx = {
      ...ctx,
      streams: streamsOf(fn, ctx.text, declared, locals, file, fileMessages, ctx.wrappers, scanned),
      messages,
    };
  }
  // Whatever the function calls, a descriptor the file turns into a message socket is one.
  if (file?.redirected) ctx = { ...ctx, redirected: file.redirected };
  const changes = new SubtreeIndex(body, CHANGE_KINDS);
  const own = new Set(locals);
  for (const name of parameterNames(fn)) if (name) own.delete(name);
  const aliases = descriptorAliases(changes.within(body), own, body);
  // Asked only by a helper call whose descriptor is a member path of its argument: most functions never.
  let copies: ReadonlyMap<string, string> | undefined;
  ctx = {
    ...ctx,
    pointerCopies: () => (copies ??= pointerCopies(changes.within(body), own, body)),
    shadows: shadowsOf(fn),
  };
  if (aliases.size > 0) {
    // A local copy of a descriptor names what it copies (itself resolved through the file's macros).
    const named = new Map(ctx.descriptorMacros ?? []);
    for (const [name, text] of aliases) named.set(name, canonicalTarget(named.get(text) ?? text));
    ctx = { ...ctx, descriptorMacros: named };
  }
  const reader = new FunctionReader(
    ctx,
    locals,
    changes,
    scalarsOf(fn),
    addressedIn(changes.within(body)),
    constPointeesOf(fn),
    bufferAliases(changes.within(body)),
    objectPointers(changes.within(body)),
  );
  reader.block(namedKids(body));
  // Read for its findings (a helper's body read for what it writes has no file facts).
  if (file) readingObserver()?.function?.({ fn, ctx, blocks: reader.blocks });
  return reader.blocks;
}

/** The argument positions after the first of a call of `count` arguments. */
function afterFirst(count: number): ReadonlySet<number> {
  return new Set(Array.from({ length: Math.max(0, count - 1) }, (_, k) => k + 1));
}

/** The loop's capped slices (see LoopStep.slices), as a spread: nothing when it has none. */
function slicesOf(stmt: Node, body: readonly Step[]): { slices?: readonly string[] } {
  const slices = cappedSlices(stmt, body);
  return slices.length > 0 ? { slices } : {};
}
