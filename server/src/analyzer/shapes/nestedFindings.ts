// A run found inside an if's arm is often also part of a longer run through that if, found in the
// enclosing block: the same writes would be reported twice (three times with an if/else). The arm's
// finding goes when the longer one names every write it names, unless it is the only one of the two
// with a fix: applying that fix is still a step the user can take.
import type { Finding } from '../model';

/** True when `outer` reports more writes to the same descriptor, every write of `inner` among them. */
function holds(outer: Finding, inner: Finding): boolean {
  if (outer.target !== inner.target || outer.related.length <= inner.related.length) return false;
  if (outer.span.start > inner.span.start || outer.span.end < inner.span.end) return false;
  const starts = new Set(outer.related.map((r) => r.span.start));
  return inner.related.every((r) => starts.has(r.span.start));
}

const SEQUENCE = new Set(['adjacent-writes', 'adjacent-writes-unknown-fd']);

/**
 * The findings of one function without the sequences another of its findings already reports whole
 * (see the file comment). Loop findings and everything else pass unchanged, in order.
 */
export function withoutNested(findings: readonly Finding[]): Finding[] {
  const sequences = findings.filter((f) => SEQUENCE.has(f.code));
  if (sequences.length < 2) return [...findings];
  return findings.filter(
    (f) => !SEQUENCE.has(f.code) || !sequences.some((o) => o !== f && holds(o, f) && (!f.fix || !!o.fix)),
  );
}
