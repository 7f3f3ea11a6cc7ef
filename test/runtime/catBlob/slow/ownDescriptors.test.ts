import { defineOwnDescriptorSuite } from '../ownDescriptors';

// Every descriptor from 3 to 20, each a node start: npm test checks the ones that crashed or lost
// the answer before the check, and one of each kind (catBlobFd.test.ts).
defineOwnDescriptorSuite(Array.from({ length: 18 }, (_, i) => i + 3));
