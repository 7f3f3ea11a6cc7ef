import { defineShallowRequestSuite } from '../helpers/shallowRequests';

// Each shallow request case by the protocol npm test does not send it by (shallow.test.ts sends the
// other), against git upload-pack: it runs in `npm run test:slow`.
defineShallowRequestSuite('twins');
