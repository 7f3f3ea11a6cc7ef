/**
 * Which documents the extension serves. Kept apart from the client wiring so the manifest test can
 * check that `package.json` activates on exactly these languages.
 */

/** VS Code language ids the language server analyses. */
export const LANGUAGE_IDS = ['c', 'typescript', 'typescriptreact', 'javascript', 'javascriptreact'] as const;

/** A document filter in the shape both `vscode` and `vscode-languageclient` accept. */
export interface WritevDocumentFilter {
  scheme: string;
  language: string;
  pattern?: string;
}

/**
 * The document selector: files and unsaved buffers of the languages above, plus C headers that VS Code
 * opens as C++ by default (`.h` is associated with `cpp` unless the user changes it).
 */
export const DOCUMENT_SELECTOR: readonly WritevDocumentFilter[] = [
  ...['file', 'untitled'].flatMap((scheme) => LANGUAGE_IDS.map((language) => ({ scheme, language }))),
  { scheme: 'file', language: 'cpp', pattern: '**/*.h' },
];
