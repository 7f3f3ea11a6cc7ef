import { defineV0Suite } from './helpers/v0Suite';

// A few cases of each kind; the whole matrix is slow/v0Matrix.slow.ts.
defineV0Suite(false);
