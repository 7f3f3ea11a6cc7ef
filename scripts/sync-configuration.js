#!/usr/bin/env node
// Writes the extension manifest's `contributes.configuration` from the settings schema
// (server/src/config/schema.ts, built to server/out), the one source of truth for settings.
// Usage: npm run build && node scripts/sync-configuration.js   (test/server/settingsSchema.test.ts
// fails while package.json and the schema differ.)
'use strict';
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { manifestConfiguration } = require('../server/out/config/schema.js');

const path = join(__dirname, '..', 'package.json');
const manifest = JSON.parse(readFileSync(path, 'utf8'));
manifest.contributes.configuration = manifestConfiguration();
writeFileSync(path, `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`package.json: contributes.configuration written from the settings schema`);
