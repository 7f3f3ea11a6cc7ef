#!/usr/bin/env node
'use strict';
require('../dist/bench/cli.js');
