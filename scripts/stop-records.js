// The engine's stops as the development tools read them (scripts/run-stops.js, scripts/why-quiet.js):
// the next write a stopped run leaves behind, what the engine stopped at, and a run's last write; and
// the harness both tools watch each file's analysis with.
'use strict';

/**
 * The first write step to `target` in `steps` (inside branches and loops too) that starts at `from` or
 * later, with where it lies.
 */
function firstWriteTo(steps, target, from = 0, nesting = 'block') {
  for (const s of steps) {
    if (s.span.end <= from) continue;
    if (s.kind === 'write' && s.target === target && s.span.start >= from) return { write: s, nesting };
    if (s.kind === 'branch')
      for (const arm of s.arms) {
        const found = firstWriteTo(arm.steps, target, from, nesting === 'block' ? 'branch' : nesting);
        if (found) return found;
      }
    if (s.kind === 'loop') {
      const found = firstWriteTo(s.body, target, from, 'loop');
      if (found) return found;
    }
  }
  return undefined;
}

/** What the engine's own stop stopped at. */
function stepKind(step) {
  if (!step) return 'end';
  if (step.kind !== 'branch') return step.kind;
  const p = step.partial;
  if (!p) return 'if/else';
  if (p.exit) return 'if-exit';
  if (p.exitLast) return 'if-exit-last';
  if (p.opaque) return p.exhaustive ? 'if/else-opaque' : 'if-opaque';
  return 'if';
}

/** The last write of a run, as a step whose span is a write's. */
function lastWrite(stop) {
  const w = stop.writes.reduce((a, b) => (a && a.span.start > b.span.start ? a : b), undefined);
  if (w) return w;
  return firstWriteTo([stop.steps[stop.last]], stop.target)?.write;
}

/**
 * A stop before a later write to the same descriptor, read: the run's last write, that next write
 * (with where it lies), the step stopped at and the reason; undefined when no such write follows.
 */
function readStop(stop) {
  const after = stop.where === 'walk' ? stop.steps.slice(stop.at) : stop.steps.slice(stop.last + 1);
  const prev = lastWrite(stop);
  // Past the run's own writes: a branch that ends a run may have given it the writes opening its arms.
  const next = firstWriteTo(after, stop.target, prev ? prev.span.end : 0);
  if (!next) return undefined;
  const at = stop.steps[stop.at];
  const why =
    stop.ended.joiner === 'engine'
      ? `stopped at ${stepKind(at)}`
      : `${stop.where === 'walk' ? '' : `(${stop.where}) `}${stop.ended.why}`;
  return { prev, next, at, first: stop.steps[stop.from], joiner: stop.ended.joiner, why };
}

/**
 * Patches, in this process only, the analyzer so that each function is read afresh on every pass (a
 * memo would answer for a function without running the engine, and its observers would see nothing)
 * and each file's analysis is watched: `begin(path, text)` makes the record of the file being read,
 * `end(path, record, result)` gets it afterwards (`result` undefined if the analysis threw). The
 * analyzer reads one file at a time on this thread (`jobs: 1`). Returns the record of the file being
 * read now, for the observers called meanwhile.
 */
function watchAnalyses({ Analyzer, FunctionMemo }, begin, end) {
  FunctionMemo.prototype.get = function get(_context, _text, compute) {
    return compute();
  };
  let current;
  const inspect = Analyzer.prototype.inspect;
  Analyzer.prototype.inspect = function inspectObserved(path, text, ...rest) {
    const previous = current;
    current = begin(path, text);
    let result;
    try {
      result = inspect.call(this, path, text, ...rest);
      return result;
    } finally {
      end(path, current, result);
      current = previous;
    }
  };
  return () => current;
}

module.exports = { firstWriteTo, stepKind, lastWrite, readStop, watchAnalyses };
