/** A benchmark suite as `writev-bench --list` describes it. */
export interface SuiteInfo {
  id: string;
  title: string;
  description: string;
}

/**
 * Parses `writev-bench --list`: one suite a line, `<id padded> <title>: <description>`. The title
 * never contains ": ", the description may.
 */
export function parseSuiteList(text: string): SuiteInfo[] {
  const suites: SuiteInfo[] = [];
  for (const line of text.split('\n')) {
    const match = /^(\S+)\s+(.*?): (.*)$/.exec(line.trim());
    if (match) suites.push({ id: match[1]!, title: match[2]!, description: match[3]! });
  }
  return suites;
}
