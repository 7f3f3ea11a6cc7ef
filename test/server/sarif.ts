// A structural check of SARIF 2.1.0 logs: the parts of the OASIS schema that writev-lint's output
// uses, with their required properties, types and enumerations. Returns the problems found.

type Json = Record<string, unknown>;

const LEVELS = ['none', 'note', 'warning', 'error'];

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Checks a SARIF log against the 2.1.0 structure; an empty list means it conforms. */
export function sarifProblems(log: unknown): string[] {
  const problems: string[] = [];
  const need = (cond: boolean, what: string) => {
    if (!cond) problems.push(what);
  };
  const message = (m: unknown, at: string) =>
    need(isObject(m) && typeof m.text === 'string', `${at}.message.text must be a string`);
  const region = (r: unknown, at: string) => {
    need(isObject(r), `${at} must be an object`);
    if (!isObject(r)) return;
    for (const key of ['startLine', 'startColumn', 'endLine', 'endColumn']) {
      if (key in r)
        need(Number.isInteger(r[key]) && (r[key] as number) >= 1, `${at}.${key} must be an integer >= 1`);
    }
    need(Number.isInteger(r.startLine), `${at}.startLine is required here`);
  };
  const physical = (p: unknown, at: string) => {
    need(isObject(p), `${at}.physicalLocation must be an object`);
    if (!isObject(p)) return;
    need(
      isObject(p.artifactLocation) && typeof p.artifactLocation.uri === 'string',
      `${at}.artifactLocation.uri must be a string`,
    );
    region(p.region, `${at}.region`);
  };
  need(isObject(log), 'the log must be an object');
  if (!isObject(log)) return problems;
  need(log.version === '2.1.0', 'version must be "2.1.0"');
  need(typeof log.$schema === 'string', '$schema should name the 2.1.0 schema');
  need(Array.isArray(log.runs), 'runs must be an array');
  for (const [i, run] of (Array.isArray(log.runs) ? log.runs : []).entries()) {
    const at = `runs[${i}]`;
    need(isObject(run) && isObject(run.tool) && isObject(run.tool.driver), `${at}.tool.driver is required`);
    if (!isObject(run) || !isObject(run.tool) || !isObject(run.tool.driver)) continue;
    const driver = run.tool.driver;
    need(typeof driver.name === 'string', `${at}.tool.driver.name must be a string`);
    const rules = Array.isArray(driver.rules) ? (driver.rules as Json[]) : [];
    for (const [k, rule] of rules.entries()) {
      need(typeof rule.id === 'string', `${at}.tool.driver.rules[${k}].id must be a string`);
      if (rule.defaultConfiguration)
        need(LEVELS.includes(String((rule.defaultConfiguration as Json).level)), `rules[${k}] level`);
    }
    if (run.columnKind !== undefined)
      need(['utf16CodeUnits', 'unicodeCodePoints'].includes(String(run.columnKind)), `${at}.columnKind`);
    need(Array.isArray(run.results), `${at}.results must be an array`);
    for (const [j, result] of (Array.isArray(run.results) ? (run.results as Json[]) : []).entries()) {
      const r = `${at}.results[${j}]`;
      message(result.message, r);
      need(LEVELS.includes(String(result.level)), `${r}.level must be one of ${LEVELS.join(', ')}`);
      need(typeof result.ruleId === 'string', `${r}.ruleId must be a string`);
      if (result.ruleIndex !== undefined) {
        need(
          Number.isInteger(result.ruleIndex) && rules[result.ruleIndex as number]?.id === result.ruleId,
          `${r}.ruleIndex must point at its rule`,
        );
      }
      for (const [k, loc] of ((result.locations as Json[]) ?? []).entries())
        physical(loc.physicalLocation, `${r}.locations[${k}]`);
      for (const [k, loc] of ((result.relatedLocations as Json[]) ?? []).entries()) {
        physical(loc.physicalLocation, `${r}.relatedLocations[${k}]`);
        need(
          Number.isInteger(loc.id) && (loc.id as number) >= 0,
          `${r}.relatedLocations[${k}].id must be an integer >= 0`,
        );
      }
      for (const [k, fix] of ((result.fixes as Json[]) ?? []).entries()) {
        need(
          Array.isArray(fix.artifactChanges) && (fix.artifactChanges as unknown[]).length > 0,
          `${r}.fixes[${k}].artifactChanges must be a non-empty array`,
        );
        for (const change of (fix.artifactChanges as Json[]) ?? []) {
          need(isObject(change.artifactLocation), `${r}.fixes[${k}] artifactLocation`);
          for (const rep of (change.replacements as Json[]) ?? [])
            region(rep.deletedRegion, `${r}.fixes[${k}] deletedRegion`);
        }
      }
    }
  }
  return problems;
}
