// Validates SARIF logs against the OASIS SARIF 2.1.0 JSON schema (vendored in fixtures/sarif, draft-07),
// with ajv and its formats (uri, uri-reference, date-time). Returns the problems found.
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES } from './helpers';

const schema = JSON.parse(readFileSync(join(FIXTURES, 'sarif', 'sarif-schema-2.1.0.json'), 'utf8')) as object;
// unicodeRegExp off: the schema's language pattern (`^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$`) has a
// stray `]` that only a non-Unicode regular expression accepts. strict off: the schema uses keywords
// ajv's strict mode asks to be declared (e.g. a `default` beside a `$ref`).
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
addFormats(ajv);
const validate = ajv.compile(schema);

/** Checks a SARIF log against the 2.1.0 schema; an empty list means it conforms. */
export function sarifProblems(log: unknown): string[] {
  if (validate(log)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}
