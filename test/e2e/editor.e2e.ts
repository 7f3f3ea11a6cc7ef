// The editor's end-to-end scenarios in a real VS Code (see editorSuite.ts): run by `npm run test:e2e`,
// which packages the .vsix first, and by `npm test`.
import { editorSuite } from './editorSuite';

editorSuite('editor');
