import { defineFilterSuite } from '../helpers/filterSuite';

// Every filter spec, both protocols, file://, ssh and smart HTTP, against git upload-pack: it runs
// in `npm run test:slow`.
defineFilterSuite(true);
