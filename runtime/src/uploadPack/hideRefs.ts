/**
 * `transfer.hideRefs` and `uploadpack.hideRefs` as git-config(1) documents them: each value names a
 * ref hierarchy to leave out of the advertisement (and out of what a client may want). A ref is
 * under a value when it equals it or continues it with `/`; trailing slashes of a value do not
 * count. A leading `!` shows the hierarchy again; when several values match a ref, the last one (in
 * the order git reads the configuration) decides. In a namespace a value is matched against the
 * ref's name with the namespace stripped, unless it starts with `^` (after any `!`), which matches
 * the full name.
 */

/** One hide rule. */
export interface HideRule {
  /** The hierarchy, without its `!`, `^` and trailing slashes. */
  readonly prefix: string;
  /** `!`: the rule shows what it matches. */
  readonly shows: boolean;
  /** `^`: the rule is matched against the full name, namespace included. */
  readonly full: boolean;
}

/** The rules of the configuration's values, in the order given. */
export function parseHideRules(values: readonly string[]): HideRule[] {
  return values.map((value) => {
    let rest = value;
    const shows = rest.startsWith('!');
    if (shows) rest = rest.slice(1);
    const full = rest.startsWith('^');
    if (full) rest = rest.slice(1);
    return { prefix: rest.replace(/\/+$/, ''), shows, full };
  });
}

function under(name: string, prefix: string): boolean {
  return name.startsWith(prefix) && (name.length === prefix.length || name[prefix.length] === '/');
}

/**
 * Whether a ref is hidden.
 *
 * @param stripped - its name with the namespace stripped (`HEAD` for the namespace's HEAD).
 * @param full - its full name in the repository.
 */
export function isHidden(rules: readonly HideRule[], stripped: string, full: string): boolean {
  for (let i = rules.length - 1; i >= 0; i--) {
    const rule = rules[i]!;
    if (under(rule.full ? full : stripped, rule.prefix)) return !rule.shows;
  }
  return false;
}
