/** `s` as a regular expression that matches it literally (a file stem, a name from a report). */
export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
