// Portable code repeats one preprocessor test around each platform-specific part of a function:
// `#ifndef WIN32 close(fd); #else CloseHandle(fd); #endif` near the top, and again `#ifndef WIN32 write(fd,
// ...) #else WriteFile(fd, ...) #endif` further down. The two conditionals are separate nodes, but one
// configuration takes the same group of both: a call in the `#else` group of the first is never compiled
// with a write in the main group of the second. This reads the test as written (directive and argument,
// spaces aside), so only conditionals spelled alike are twins.
import type { Node } from 'web-tree-sitter';

/** The test of a conditional as written (`#ifndef WIN32`, `#if defined(X)`), or undefined. */
function testOf(conditional: Node): string | undefined {
  const spelled = (n: Node | null) => n?.text.replace(/\s+/g, '');
  if (conditional.type === 'preproc_ifdef') {
    const name = spelled(conditional.childForFieldName('name'));
    return name && `${conditional.child(0)?.text ?? ''} ${name}`;
  }
  if (conditional.type === 'preproc_if') {
    const condition = spelled(conditional.childForFieldName('condition'));
    return condition && `#if ${condition}`;
  }
  return undefined;
}

/**
 * The conditionals around `node`, innermost first, by their test: true when `node` is in the `#else`
 * group, false when in the main group. A node under `#elif` (a chain of tests) has no simple twin.
 */
function groups(node: Node): Map<string, boolean> {
  const found = new Map<string, boolean>();
  let child = node;
  for (let at = node.parent; at; child = at, at = at.parent) {
    const test = testOf(at);
    if (!test || child.type === 'preproc_elif' || found.has(test)) continue;
    found.set(test, child.type === 'preproc_else');
  }
  return found;
}

/**
 * True when `a` and `b` are in opposite groups (one in the main group, one in the `#else` group) of two
 * conditionals with the same test: no configuration compiles both. Conditionals shared by both nodes are
 * the caller's to compare (see helperBodies.ts `otherConfiguration`).
 */
export function oppositeTwinGroups(a: Node, b: Node): boolean {
  const inB = groups(b);
  for (const [test, inElse] of groups(a)) {
    const other = inB.get(test);
    if (other !== undefined && other !== inElse) return true;
  }
  return false;
}
