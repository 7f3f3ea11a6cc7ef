/**
 * Git namespaces (gitnamespaces(7)): `GIT_NAMESPACE=a/b` serves the refs stored under
 * `refs/namespaces/a/refs/namespaces/b/`, with that prefix stripped, as if they were the whole
 * repository. Each `/`-separated component nests one level; empty components (leading or doubled
 * slashes) are skipped, and the result must be a valid ref name, so a trailing slash, `..`, a space
 * or a component starting with a dot is refused as git refuses it.
 */
import { UploadPackError } from './errors';

/** Characters git never allows in a ref name besides control characters: see git-check-ref-format(1). */
const FORBIDDEN = /[ ~^:?*[\\]/;

/** Whether `name` holds an ASCII control character (below space, or DEL). */
function hasControl(name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * Whether `name` is a valid multi-level ref name by git-check-ref-format(1)'s rules: no component
 * empty, starting with a dot or ending in `.lock`; no `..`, `@{`, control characters, space, or any
 * of `~^:?*[\`; not ending in a dot or a slash; not `@` alone; at least two components.
 */
export function isValidRefName(name: string): boolean {
  if (name === '@' || name.endsWith('.') || FORBIDDEN.test(name) || hasControl(name)) return false;
  if (name.includes('..') || name.includes('@{')) return false;
  const components = name.split('/');
  if (components.length < 2) return false;
  return components.every((c) => c !== '' && !c.startsWith('.') && !c.endsWith('.lock'));
}

/**
 * The ref prefix of a namespace: `''` for none (unset or empty), else
 * `refs/namespaces/<c1>/refs/namespaces/<c2>/.../` with a trailing slash.
 *
 * @throws {@link UploadPackError} `bad git namespace path "<raw>"`, git's words, for a namespace
 *   that does not make a valid ref name.
 */
export function namespacePrefix(raw: string | undefined): string {
  if (raw === undefined || raw === '') return '';
  // Only a component that ends the string may be empty and still count: git keeps it, and the
  // trailing slash it leaves makes the name invalid.
  const parts = raw.split('/');
  const kept = parts.filter((part, i) => part !== '' || i === parts.length - 1);
  const prefix = kept.map((part) => `refs/namespaces/${part}`).join('/');
  if (kept.length === 0 || !isValidRefName(prefix)) {
    throw new UploadPackError(`bad git namespace path "${raw}"`);
  }
  return `${prefix}/`;
}

/** `full` with the namespace prefix removed, or `undefined` when it lies outside the namespace. */
export function stripNamespace(prefix: string, full: string): string | undefined {
  return full.startsWith(prefix) ? full.slice(prefix.length) : undefined;
}
