// Which files a second pass analyses again. The first pass finds the wrappers each file defines; a
// file's findings can change only where it calls a wrapper that another file defines, which the second
// pass passes to its analysis. A file calling none keeps its first-pass result.
import { languageOf } from '../analyzer/languageOf';
import type { WrapperIndex } from '../analyzer/wrapperIndex';

/**
 * What finds a file worth analysing again: a call to one of `words`. Each word is held by a file's
 * bytes (in ASCII, whether the file is UTF-8 or Latin-1) when its text matches `pattern`: files without
 * any are passed over without being decoded.
 */
export interface Callers {
  readonly pattern: RegExp;
  readonly words: readonly string[];
}

/**
 * What finds a call to any of `names` (`(?!)`, nothing, for none), and a call through any of `members`
 * (`c->m(`, `c.m(`): a member's name alone (`write`) is also a function every writing file calls.
 */
export function callPattern(names: readonly string[], members: readonly string[] = []): Callers {
  const plain = names.filter((n) => /^[\w$]+$/.test(n));
  const through = members.filter((n) => /^[\w$]+$/.test(n));
  const alternatives = (list: readonly string[]) => list.map((n) => n.replace(/\$/g, '\\$')).join('|');
  const parts = [
    ...(plain.length > 0 ? [`\\b(?:${alternatives(plain)})\\s*\\(`] : []),
    ...(through.length > 0 ? [`(?:->|\\.)\\s*(?:${alternatives(through)})\\s*\\(`] : []),
  ];
  return {
    pattern: new RegExp(parts.length > 0 ? parts.join('|') : '(?!)'),
    words: [...plain, ...through],
  };
}

/** The calls that make each file of a second pass worth analysing again. */
export class SecondPass {
  private readonly all: Callers;
  /** By their words joined: most files share one. */
  private readonly made = new Map<string, Callers>();

  private readonly redo: ReadonlySet<string>;

  /**
   * `names`: the wrappers the first pass found exported; `index`: which files define them; `redo`:
   * files analysed again whatever they call (the fact base learnt something they ask about).
   */
  constructor(
    names: readonly string[],
    private readonly index: WrapperIndex | undefined,
    redo: readonly string[] = [],
  ) {
    this.all = callPattern(names);
    this.redo = new Set(redo);
  }

  /** Whether `path` is analysed again whatever it calls. */
  always(path: string): boolean {
    return this.redo.has(path);
  }

  /**
   * The calls that make `path` worth analysing again. A C file's analysis sees other files' wrappers
   * only as `index.cWrappersFor(path)`: not its own (its own definitions were already read in the first
   * pass), nor a name two files define. A file that calls only such names gets the first pass's
   * findings from the second, so it is not analysed again (cgit's html.c defines and calls html(),
   * redis's linenoise.c its own helpers: both were analysed twice for nothing). TS/JS files: any of
   * the names.
   */
  forPath(path: string): Callers {
    if (!this.index || languageOf(path) !== 'c') return this.all;
    const external = this.index.cWrappersFor(path);
    const headers = this.index.cHeaderWrapperNames();
    // A member other files store functions in: a call through it reads what they are.
    const members = this.index.cImplementationsFor(path);
    const words = this.all.words.filter((n) => external.has(n) || headers.has(n));
    // A member's implementations matter only to a call through it: a file that calls a function of
    // the member's name (`write(fd, ...)`, where the member is `->write`) reads as it did alone.
    const through = this.all.words.filter((n) => members.has(n) && !words.includes(n));
    const key = `${words.join('|')}#${through.join('|')}`;
    let callers = this.made.get(key);
    if (!callers) {
      // A header's macro that expands to one of them (`WRITE(fd, b, n)` for `write_sim(...)`): the
      // file's text names the macro, not the helper, and its analysis with the index expands it.
      callers = callPattern([...words, ...this.index.cHeaderMacrosCalling(words)], through);
      this.made.set(key, callers);
    }
    return callers;
  }
}

/** The second-pass filter of a job with `names` (none: the first pass, or a fix, analyses every file). */
export function secondPass(
  names: readonly string[] | undefined,
  index: WrapperIndex | undefined,
  redo?: readonly string[],
): SecondPass | undefined {
  return names ? new SecondPass(names, index, redo) : undefined;
}
