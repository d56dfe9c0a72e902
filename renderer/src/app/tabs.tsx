/** The main area's tab bar (ARIA tabs: arrows move between tabs, the panel is labelled by its tab). */
import type { KeyboardEvent } from 'react';
import type { TabId } from '../workspace/workspace-context';

/** Tabs in display order with their labels. */
export const TABS: readonly { id: TabId; label: string }[] = [
  { id: 'inspector', label: 'Inspector' },
  { id: 'table', label: 'Table' },
  { id: 'convention', label: 'Convention' },
  { id: 'lookup', label: 'Lookup' },
  { id: 'decode', label: 'Decode' },
  { id: 'activity', label: 'Activity' },
];

/** The tab list; `current` is selected. */
export function TabBar({ current, onSelect }: { current: TabId; onSelect: (tab: TabId) => void }) {
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = TABS.findIndex((t) => t.id === current);
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    event.preventDefault();
    const next = TABS[(index + step + TABS.length) % TABS.length];
    if (next) {
      onSelect(next.id);
      document.getElementById(`tab-${next.id}`)?.focus();
    }
  };
  return (
    <div className="tabs" role="tablist" aria-label="Views" onKeyDown={onKeyDown}>
      {TABS.map((tab) => (
        <button
          key={tab.id}
          id={`tab-${tab.id}`}
          type="button"
          role="tab"
          className="tab"
          aria-selected={tab.id === current}
          aria-controls={`panel-${tab.id}`}
          tabIndex={tab.id === current ? 0 : -1}
          onClick={() => onSelect(tab.id)}
          data-testid={`tab-${tab.id}`}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}
