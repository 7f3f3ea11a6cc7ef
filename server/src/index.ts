// The analyzer's library API: what the CLI, the tests and other tools use. No LSP import.
export { Analyzer, languageOf, skipReason, MAX_TEXT_LENGTH, type AnalyzeOptions } from './analyzer/analyzer';
export { applyEdits, fixAllEdits } from './analyzer/edits';
export type {
  Finding,
  FindingCode,
  Fix,
  Language,
  RuleCode,
  Severity,
  Span,
  TextEdit,
} from './analyzer/model';
export { RULE_CODES } from './analyzer/model';
export { LineIndex, type Position } from './analyzer/positions';
export {
  DEFAULT_SETTINGS,
  parseSettings,
  SettingsError,
  type AnalyzerSettings,
  type SettingsIssue,
  type SettingsOrigin,
} from './analyzer/settings';
export { applySuppressions, disableLineEdit } from './analyzer/suppressions';
export { WrapperIndex, type FileWrappers } from './analyzer/wrapperIndex';
export {
  CONFIG_FILE_NAME,
  ConfigLookup,
  findConfigFile,
  readConfigFile,
  type ConfigFile,
  type LookupOptions,
} from './config/configFile';
