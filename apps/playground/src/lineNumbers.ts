/**
 * The pruned side's gutter shows original line numbers: the pruned text is the kept lines in
 * order with one marker line per elided run (text/elision.ts), so the numbers follow from
 * `keptLines` alone. Marker lines get an empty label.
 */
export function prunedLineLabels(keptLines: readonly number[], totalLines: number): string[] {
  const labels: string[] = [];
  let next = 1;
  for (const line of keptLines) {
    if (line > next) labels.push(''); // the marker of lines next … line − 1
    labels.push(String(line));
    next = line + 1;
  }
  if (next <= totalLines && keptLines.length > 0) labels.push('');
  return labels;
}
