import { defineFilterSuite } from './helpers/filterSuite';

// A representative part of the partial-clone suite; `npm run test:slow` runs all of it.
defineFilterSuite(false);
