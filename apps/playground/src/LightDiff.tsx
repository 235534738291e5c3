/**
 * The two panes as plain text, shown until the diff editor (Monaco, a chunk of its own) is in: a
 * page load's first pruned result is on screen without Monaco (#15). Read-only; a pointer press, a
 * key or focus in it asks for the editor at once (onWake), which then replaces it with the same text.
 */
export function LightDiff({ original, pruned, onWake }: { original: string; pruned: string; onWake: () => void }) {
  return (
    <div className="light-diff" data-testid="light-diff" onPointerDown={onWake} onKeyDown={onWake} onFocus={onWake}>
      <pre className="light-pane" tabIndex={0} aria-label="Original code (the editor is loading)">
        {original}
      </pre>
      <pre className="light-pane" tabIndex={0} aria-label="Pruned code" data-testid="pruned-light">
        {pruned}
      </pre>
    </div>
  );
}
