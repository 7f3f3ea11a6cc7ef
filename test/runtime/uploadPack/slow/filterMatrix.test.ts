import { defineFilterSuite } from '../helpers/filterSuite';

// Every filter spec, both protocols, file:// and ssh, against git upload-pack: it runs in
// `npm run test:slow`.
defineFilterSuite(true);
