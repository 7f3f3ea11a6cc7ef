/**
 * `@writev/runtime/bench`: the benchmark results' types, their text and Markdown formats, and the
 * statistics behind them, without the write stack, the protocol, the object reader or the
 * suites. The editor's panel imports this subpath, so its first bundle carries only what it
 * shows; the benchmarks themselves run in a child process.
 *
 * @packageDocumentation
 */
export {
  formatBytes,
  formatCase,
  formatCaseMarkdown,
  formatHeadline,
  formatMeasurement,
  formatSyscalls,
  formatTime,
  headlineRatio,
  ratiosAgainst,
} from './format';
export type { BenchEvent, BenchSize, CaseResult, Headline, Measurement, RunSample } from './result';
export { median, percentile, speedRatio, summarize, type Ratio, type Summary } from './stats';
