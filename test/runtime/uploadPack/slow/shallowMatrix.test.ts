import { defineShallowSuite } from '../helpers/shallowSuite';

// Every shallow case by protocol v0 and v2, over file:// and ssh, against git upload-pack (a few
// minutes on 2 cores): it runs in `npm run test:slow`.
defineShallowSuite(true);
