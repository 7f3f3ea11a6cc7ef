// The HTTP clone suite served by git upload-pack: writev-git-http's twin of clone.test.ts (which
// npm test runs with writev-upload-pack behind the same HTTP code).
import { defineHttpCloneSuite, serveRepositories } from '../cloneSuite';

defineHttpCloneSuite(serveRepositories(), 'git upload-pack');
