import { after, before, describe } from 'node:test';
import { Scratch } from '../helpers/gitRepo';
import { defineAdvertisementCases, namespaceRepository } from '../helpers/namespaceSettings';

// The namespace and hideRefs settings npm test leaves out (namespaces.test.ts serves one of each kind),
// against git upload-pack: it runs in `npm run test:slow`.
describe('GIT_NAMESPACE and hideRefs: the advertisement of git upload-pack (the other settings)', () => {
  const scratch = new Scratch();
  let source: string;
  before(() => {
    source = namespaceRepository(scratch.dir).source;
  });
  after(() => scratch.dispose());
  defineAdvertisementCases('rest', () => source, scratch.path('cache'));
});
