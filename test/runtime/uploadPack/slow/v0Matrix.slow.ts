import { defineV0Suite } from '../helpers/v0Suite';

// Every configuration, want and negotiation scenario against git upload-pack (about 2 minutes on
// 2 cores): run with `node --test out/test/runtime/uploadPack/slow/v0Matrix.slow.js`.
defineV0Suite(true);
