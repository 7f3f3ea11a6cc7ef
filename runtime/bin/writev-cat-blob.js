#!/usr/bin/env node
'use strict';
// The bundle esbuild makes from src/bin/writev-cat-blob.ts (one file, fast to start).
require('../dist/bundle/writev-cat-blob.js');
