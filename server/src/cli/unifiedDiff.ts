// --diff: what --fix would change, as a unified diff that `git apply` and `patch -p1` take (`--- a/path`,
// `+++ b/path`, hunks with three lines of context). Lines end at LF only, as those tools split them: a
// CRLF file's diff carries its CRs inside the lines, and a last line without a line break is marked
// as diff(1) marks it.

/** Lines of context around each change, as diff -u and git diff print them. */
const CONTEXT = 3;

/** `text` split after each LF, the LFs kept. */
function linesOf(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** One step of an edit script: a line kept, removed from `a` or added from `b`. */
type Op = { readonly kind: ' ' | '-' | '+'; readonly line: string };

/**
 * The shortest edit script from `a` to `b` (Myers' O((N+M)D) greedy algorithm), as kept, removed and
 * added lines in order. Lines common to both ends are matched first, so a fix's few changed lines cost
 * little in a long file.
 */
function editScript(a: readonly string[], b: readonly string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const x0 = a.slice(head, a.length - tail);
  const y0 = b.slice(head, b.length - tail);
  const n = x0.length;
  const m = y0.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = false;
  for (let d = 0; d <= max && !found; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!)
          ? v[offset + k + 1]!
          : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && x0[x] === y0[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
  }
  // Walk back through the saved frontiers to recover the path.
  const middle: Op[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0 && (x > 0 || y > 0); d--) {
    const frontier = trace[d]!;
    const k = x - y;
    const down = k === -d || (k !== d && frontier[offset + k - 1]! < frontier[offset + k + 1]!);
    const prevK = down ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : frontier[offset + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      middle.push({ kind: ' ', line: x0[--x]! });
      y--;
    }
    if (d === 0) break;
    if (down) middle.push({ kind: '+', line: y0[--y]! });
    else middle.push({ kind: '-', line: x0[--x]! });
  }
  middle.reverse();
  return [
    ...a.slice(0, head).map((line): Op => ({ kind: ' ', line })),
    ...middle,
    ...a.slice(a.length - tail).map((line): Op => ({ kind: ' ', line })),
  ];
}

/** A diff line: the mark and the line, and diff(1)'s note when the line has no line break. */
function render(op: Op): string {
  const broken = op.line.endsWith('\n');
  return `${op.kind}${op.line}${broken ? '' : '\n\\ No newline at end of file\n'}`;
}

/** `start,count` of a hunk's side; an empty side is numbered from the line before it, as diff -u does. */
function range(start: number, count: number): string {
  return count === 0 ? `${start},0` : count === 1 ? `${start + 1}` : `${start + 1},${count}`;
}

/**
 * The unified diff from `before` to `after` for the file `path` (with forward slashes, relative to
 * where the patch is applied), or '' when they are equal.
 */
export function unifiedDiff(path: string, before: string, after: string): string {
  if (before === after) return '';
  const ops = editScript(linesOf(before), linesOf(after));
  const changed = ops.flatMap((op, i) => (op.kind === ' ' ? [] : [i]));
  const hunks: string[] = [];
  let i = 0;
  while (i < changed.length) {
    // A hunk runs from CONTEXT lines before a change to CONTEXT lines after the last change that
    // follows the one before it with at most 2 * CONTEXT kept lines between (their contexts touch).
    let last = changed[i]!;
    let j = i + 1;
    while (j < changed.length && changed[j]! - last - 1 <= 2 * CONTEXT) last = changed[j++]!;
    const from = Math.max(0, changed[i]! - CONTEXT);
    const to = Math.min(ops.length, last + CONTEXT + 1);
    let aStart = 0;
    let bStart = 0;
    for (const op of ops.slice(0, from)) {
      if (op.kind !== '+') aStart++;
      if (op.kind !== '-') bStart++;
    }
    const body = ops.slice(from, to);
    const aCount = body.filter((op) => op.kind !== '+').length;
    const bCount = body.filter((op) => op.kind !== '-').length;
    hunks.push(`@@ -${range(aStart, aCount)} +${range(bStart, bCount)} @@\n${body.map(render).join('')}`);
    i = j;
  }
  return `--- a/${path}\n+++ b/${path}\n${hunks.join('')}`;
}
