// One schema for the settings: the manifest's contributes.configuration is generated from it, the
// defaults come from it, and every input (editor settings, config files) is validated by it with
// messages that name the key path and suggest the near miss.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULT_SETTINGS, parseSettings, SettingsError } from 'writev-lint';
import { manifestConfiguration, SETTINGS_SCHEMA } from 'writev-lint/out/config/schema';
import { REPO } from './helpers';

function problems(raw: unknown, source = 'f.json', prefix = ''): string[] {
  try {
    parseSettings(raw, { source, prefix });
  } catch (error) {
    assert.ok(error instanceof SettingsError, String(error));
    assert.equal(error.code, 'EWRITEVSETTINGS');
    return error.message.split('\n');
  }
  assert.fail(`${JSON.stringify(raw)} was accepted`);
}

describe('the settings schema', () => {
  it("is what package.json's contributes.configuration declares (node scripts/sync-configuration.js)", () => {
    const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
      contributes: { configuration: unknown };
    };
    assert.deepEqual(manifest.contributes.configuration, manifestConfiguration());
  });

  it('declares every setting the analyzer reads, and the defaults are the schema defaults', () => {
    // `overrides` is no setting of its own: the config lookup turns it into the others, per file.
    assert.deepEqual(
      Object.keys(SETTINGS_SCHEMA.properties ?? {})
        .filter((key) => key !== 'overrides')
        .sort(),
      Object.keys(DEFAULT_SETTINGS).sort(),
    );
    assert.deepEqual(parseSettings({}), DEFAULT_SETTINGS);
    assert.deepEqual(parseSettings(undefined), DEFAULT_SETTINGS);
    const props = manifestConfiguration().properties;
    assert.deepEqual(props['writev.attributeMacros']?.default, DEFAULT_SETTINGS.attributeMacros);
    assert.deepEqual(props['writev.writeFunctions']?.items?.properties?.language?.enum, ['c', 'ts']);
    assert.equal(DEFAULT_SETTINGS.minSequenceLength, 2);
    assert.equal(DEFAULT_SETTINGS.severity.loopWrites, 'information');
  });

  it('fills defaults inside list items and keeps what is set, without modifying the input', () => {
    const raw = {
      writeFunctions: [{ name: 'emit_packet', len: 2 }],
      wrappers: [{ name: 'out', fd: ' ctx -> fd ', language: 'ts' }],
      severity: { loopWrites: 'hint' },
    };
    const copy = structuredClone(raw);
    const settings = parseSettings(raw);
    assert.deepEqual(raw, copy);
    assert.deepEqual(settings.writeFunctions, [
      { name: 'emit_packet', language: 'c', fd: 0, buf: 1, len: 2 },
    ]);
    assert.deepEqual(settings.wrappers, [{ name: 'out', fd: 'ctx->fd', language: 'ts', buf: 0 }]);
    assert.deepEqual(settings.severity, {
      adjacentWrites: 'warning',
      adjacentWritesUnknownFd: 'information',
      loopWrites: 'hint',
    });
  });

  it("accepts an editor's whole section (with the editor-only settings) and names keys as writev.*", () => {
    const section = {
      ...structuredClone(DEFAULT_SETTINGS),
      trace: { server: 'off' },
      benchmarks: { size: 'quick', runs: null },
    };
    assert.deepEqual(parseSettings(section), DEFAULT_SETTINGS);
    assert.throws(() => parseSettings({ languages: { c: 'no' } }), {
      message: 'settings: writev.languages.c: expected true or false, got "no"',
    });
  });

  it('refuses wrong types, naming the key path: {"languages":{"c":"no"}}, 42, lists, indexes', () => {
    assert.deepEqual(problems({ languages: { c: 'no' } }), [
      'f.json: languages.c: expected true or false, got "no"',
    ]);
    assert.deepEqual(problems(42), ['f.json: expected an object, got 42']);
    assert.deepEqual(problems({ exclude: 'vendor/' }), ['f.json: exclude: expected a list, got "vendor/"']);
    assert.deepEqual(problems({ writeFunctions: [{ name: 'put', fd: '1' }, { fd: 0 }] }), [
      'f.json: writeFunctions[0].fd: expected a whole number, got "1"',
      'f.json: writeFunctions[1].name: missing (it is required)',
    ]);
    assert.deepEqual(problems({ minSequenceLength: 1 }), [
      'f.json: minSequenceLength: expected a whole number of 2 or more, got 1',
    ]);
    assert.deepEqual(problems({ wrappers: [{ name: 'emit', fd: '  ' }] }), [
      'f.json: wrappers[0].fd: expected the descriptor expression, e.g. "out_fd", got "  "',
    ]);
    assert.match(
      problems({ writeFunctions: [{ name: 'do it' }] })[0] ?? '',
      /name: expected a function name/,
    );
  });

  it('refuses unknown keys and values with a "did you mean" for near misses', () => {
    assert.deepEqual(problems({ minSequenceLenght: 3 }), [
      'f.json: minSequenceLenght: unknown setting; did you mean minSequenceLength?',
    ]);
    assert.deepEqual(problems({ severity: { adjacentwrites: 'error' } }), [
      'f.json: severity.adjacentwrites: unknown setting; did you mean severity.adjacentWrites?',
    ]);
    assert.deepEqual(problems({ severity: { loopWrites: 'warn' } }), [
      'f.json: severity.loopWrites: expected one of error, warning, information, hint, off, got "warn"; did you mean warning?',
    ]);
    assert.deepEqual(problems({ writeFunctions: [{ name: 'put', language: 'typescript' }] }), [
      'f.json: writeFunctions[0].language: expected one of c, ts, got "typescript"',
    ]);
    assert.deepEqual(problems({ colour: true }), [
      'f.json: colour: unknown setting (known here: writeFunctions, wrappers, minSequenceLength, severity, unknownDescriptors, languages, exclude, attributeMacros, measuredWrites, streamFunctions, presets, reportUnusedDirectives, overrides)',
    ]);
    assert.deepEqual(problems({ 'writev.minSequenceLength': 3 }), [
      'f.json: writev.minSequenceLength: unknown setting; this file nests settings: {"minSequenceLength": ...}',
    ]);
    assert.deepEqual(problems({ trace: { server: 'off' } }), [
      'f.json: trace: an editor setting (VS Code settings.json), not for a config file',
    ]);
  });
});
