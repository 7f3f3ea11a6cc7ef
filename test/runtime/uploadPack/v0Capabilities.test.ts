import { defineV0Suite } from './helpers/v0Suite';

// A few cases of each kind; the whole matrix is slow/v0Matrix.test.ts (npm run test:slow).
defineV0Suite(false);
