// A batch run analyses some files twice: a later pass reads again, with the other files' helpers, each
// file that calls one of them (cli/secondPass.ts). The text is the same, and so is its blanked form
// (parser.ts blankMacros), which is a dozen passes over the whole file: the later pass takes the form
// the first pass made instead of making it again.

/**
 * How many characters of text {@link BlankedTexts} keeps the blanked forms of at most (each as long as
 * its text, which the map holds too): 32 MiB of UTF-16 in all, more than a large tree's files that
 * call a writer (a 400,000-line tree's are about 5 million).
 */
const KEPT_CHARACTERS = 8 * 1024 * 1024;

/**
 * The blanked forms of the texts blanked last, by text and by what else decides the form (the
 * attribute macros' pattern), up to {@link KEPT_CHARACTERS}: the oldest go first. The blanked form must
 * be a function of the text and that key alone.
 */
export class BlankedTexts {
  private readonly kept = new Map<string, { readonly key: string; readonly blanked: string }>();
  private characters = 0;

  /** The blanked form of `text` under `key`, made by `blank` unless it is kept. */
  get(text: string, key: string, blank: () => string): string {
    const found = this.kept.get(text);
    if (found && found.key === key) return found.blanked;
    const blanked = blank();
    if (found) this.drop(text);
    if (text.length > KEPT_CHARACTERS) return blanked;
    this.kept.set(text, { key, blanked });
    this.characters += text.length;
    for (const old of this.kept.keys()) {
      if (this.characters <= KEPT_CHARACTERS) break;
      this.drop(old);
    }
    return blanked;
  }

  private drop(text: string): void {
    if (this.kept.delete(text)) this.characters -= text.length;
  }
}
