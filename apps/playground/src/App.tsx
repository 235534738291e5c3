import { useRef, useState } from 'react';
import { CardsView } from './CardsView';
import { CompactionView } from './CompactionView';
import { PackView } from './PackView';
import { PruningView } from './PruningView';
import { TABS, readTab, type TabId } from './tabState';

/**
 * The page: the header with the tab list, and one panel per tab. A panel is mounted the first
 * time its tab is opened and then kept (hidden), so its editor, inputs and last result survive
 * switching; only the visible tab writes the URL.
 */
export function App() {
  const [tab, setTab] = useState<TabId>(() => readTab(window.location.search));
  const [visited, setVisited] = useState<Set<TabId>>(() => new Set([tab]));
  const tabRefs = useRef<Record<string, HTMLButtonElement | null>>({});

  const open = (id: TabId, focus = false) => {
    setTab(id);
    setVisited((v) => (v.has(id) ? v : new Set(v).add(id)));
    if (focus) tabRefs.current[id]?.focus();
  };

  const onTabKey = (e: React.KeyboardEvent, i: number) => {
    const n = TABS.length;
    const to = e.key === 'ArrowRight' ? (i + 1) % n : e.key === 'ArrowLeft' ? (i - 1 + n) % n : e.key === 'Home' ? 0 : e.key === 'End' ? n - 1 : -1;
    if (to < 0) return;
    e.preventDefault();
    open(TABS[to].id, true);
  };

  return (
    <div className="shell" data-tab={tab}>
      <header className="topbar">
        <div className="brand">
          <span className="logo" aria-hidden="true">
            ✂
          </span>
          <h1>
            ctxprune <span>playground</span>
          </h1>
        </div>
        <p className="tagline">Context for coding agents — pruned line by line, chosen as cards, compacted across turns.</p>
        <div className="views" role="tablist" aria-label="Playground views">
          {TABS.map((t, i) => (
            <button
              key={t.id}
              ref={(el) => {
                tabRefs.current[t.id] = el;
              }}
              type="button"
              role="tab"
              id={`tab-${t.id}`}
              aria-selected={tab === t.id}
              aria-controls={`panel-${t.id}`}
              tabIndex={tab === t.id ? 0 : -1}
              className={`view${tab === t.id ? ' active' : ''}`}
              onClick={() => open(t.id)}
              onKeyDown={(e) => onTabKey(e, i)}
              data-testid={`tab-${t.id}`}
            >
              {t.label}
            </button>
          ))}
        </div>
        <p className="privacy" title="Pruning, cards and compaction run in workers in this page">
          <span className="dot" aria-hidden="true" /> Runs in your browser · nothing is uploaded
        </p>
      </header>
      {TABS.map((t) => (
        <div key={t.id} role="tabpanel" id={`panel-${t.id}`} aria-labelledby={`tab-${t.id}`} hidden={tab !== t.id} className="tabpanel">
          {visited.has(t.id) && t.id === 'pruning' && <PruningView active={tab === 'pruning'} />}
          {visited.has(t.id) && t.id === 'cards' && <CardsView active={tab === 'cards'} />}
          {visited.has(t.id) && t.id === 'compaction' && <CompactionView active={tab === 'compaction'} />}
          {visited.has(t.id) && t.id === 'pack' && <PackView active={tab === 'pack'} />}
        </div>
      ))}
    </div>
  );
}
