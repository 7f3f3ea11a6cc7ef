// The analyzer's library API: what the CLI, the tests and other tools use. No LSP import.
export { Analyzer, languageOf, skipReason, MAX_TEXT_LENGTH, type AnalyzeOptions } from './analyzer/analyzer';
export { applyEdits, fixAllEdits } from './analyzer/edits';
export type { Finding, FindingCode, Fix, Language, Severity, Span, TextEdit } from './analyzer/model';
export { LineIndex, type Position } from './analyzer/positions';
export { DEFAULT_SETTINGS, parseSettings, SettingsError, type AnalyzerSettings } from './analyzer/settings';
export { WrapperIndex, type FileWrappers } from './analyzer/wrapperIndex';
