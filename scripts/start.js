#!/usr/bin/env node
// The main job on the bundled defaults: see README.md. For now, a demo of the runtime.
'use strict';
require('./demo.js');
