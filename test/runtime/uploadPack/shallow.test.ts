import { defineShallowSuite } from './helpers/shallowSuite';

// A few cases over file://; the whole matrix is slow/shallowMatrix.test.ts (npm run test:slow).
defineShallowSuite(false, [
  'clone --depth 1',
  'clone --shallow-since',
  'fetch --deepen 2',
  'fetch --unshallow',
]);
