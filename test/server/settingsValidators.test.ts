// The settings validators the build generates (ajv standalone code) must be the ones for today's
// schema, and must report exactly what ajv compiling the schema at run time reports, defaults included.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Ajv, { type ValidateFunction } from 'ajv';
import { EDITOR_SETTINGS_SCHEMA, SETTINGS_SCHEMA } from 'writev-lint/out/config/schema';
import { AJV_OPTIONS, schemaKey } from 'writev-lint/out/config/validate';
import { REPO } from './helpers';

const generatedPath = join(REPO, 'server', 'out', 'config', 'settingsValidators.js');

const INPUTS: unknown[] = [
  {},
  {
    writeFunctions: [{ name: '1x', fd: '1', language: 'cc' }, { fd: -1 }],
    wrappers: [{ name: 'emit' }, { name: 'e', fd: ' ', buf: 1.5 }],
    minSequenceLength: 1,
    severity: { adjacentWrites: 'warn', loopWrites: 3 },
    bogus: 1,
    'writev.minSequenceLength': 2,
  },
  { trace: { server: 'loud' }, benchmarks: { runs: 0, size: 3 } },
  { attributeMacros: ['1a', 3], exclude: 'vendor', streamFunctions: [''], measuredWrites: { minCalls: 0 } },
  {
    languages: { c: 'yes' },
    reportUnusedDirectives: null,
    writeFunctions: [{ name: 'emit_packet', len: 2 }],
  },
  [],
  null,
  'text',
];

describe('generated settings validators', () => {
  it('exist for the current schemas (npm run build makes them)', () => {
    assert.ok(existsSync(generatedPath), `${generatedPath} is missing: run npm run build`);
    const generated = require(generatedPath) as Record<string, unknown>;
    for (const schema of [SETTINGS_SCHEMA, EDITOR_SETTINGS_SCHEMA]) {
      assert.equal(typeof generated[schemaKey(schema)], 'function', 'stale: run npm run build');
    }
  });

  it('accept, fill in defaults and report errors as ajv compiling the schema does', () => {
    const generated = require(generatedPath) as Record<string, ValidateFunction>;
    for (const schema of [SETTINGS_SCHEMA, EDITOR_SETTINGS_SCHEMA]) {
      const compiled = new Ajv(AJV_OPTIONS).compile(schema as object);
      const standalone = generated[schemaKey(schema)];
      assert.ok(standalone);
      for (const input of INPUTS) {
        const a = structuredClone(input);
        const b = structuredClone(input);
        assert.equal(standalone(b), compiled(a), JSON.stringify(input));
        assert.deepEqual(b, a, 'defaults filled in alike');
        assert.deepEqual(standalone.errors, compiled.errors, JSON.stringify(input));
      }
    }
  });
});
