// The end-to-end scenarios that measure (a traced program's hints, the benchmark panel) in a real VS
// Code (see editorSuite.ts): run by `npm run test:e2e:benchmarks`, which packages the .vsix first, and
// by `npm run test:slow`.
import { editorSuite } from './editorSuite';

editorSuite('benchmarks');
