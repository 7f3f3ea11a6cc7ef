import { defineShallowSuite } from '../helpers/shallowSuite';

// Every shallow case by protocol v0 and v2, over file://, ssh and smart HTTP, against git
// upload-pack (three cases at a time): it runs in `npm run test:slow`.
defineShallowSuite(true);
