import { defineV0Suite } from '../helpers/v0Suite';

// Every configuration, want and negotiation scenario against git upload-pack: it runs in
// `npm run test:slow`.
defineV0Suite(true);
