// What a finding takes for granted about calls whose bodies the analyzer never read: said in the
// message, naming them, so the reader can check it.

/** What a run joined over calls whose bodies were not read takes for granted, naming them. */
export function assumedCalls(names: readonly string[]): string {
  const listed = [...new Set(names)].map((n) => `${n}()`).join(', ');
  return `taken that ${listed}, whose body is not in the code read, does no output and changes nothing an earlier write sent`;
}
