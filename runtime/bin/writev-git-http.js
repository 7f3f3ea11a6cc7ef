#!/usr/bin/env node
// writev-git-http: a committed shim, so npm links the bin at install time (it links only targets that
// exist) while the code it loads is built afterwards (npm ci's prepare step, or the published tarball).
'use strict';
require('../dist/writev-git-http.js');
