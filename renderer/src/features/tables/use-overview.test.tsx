// @vitest-environment jsdom
/** The overview's survey yields to a table being opened: no survey request starts while an audit start is unanswered. */
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { LocksmithBridge } from '../../../../shared/contract';
import { BridgeProvider } from '../../bridge/bridge-context';
import { beginOpening } from './table-opening';
import { useOverview } from './use-overview';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** A bridge whose surveys answer only when the test says so; it records which tables were surveyed. */
function fakeBridge(): { bridge: LocksmithBridge; surveyed: string[]; answer: (table: string) => void } {
  const surveyed: string[] = [];
  const pending = new Map<string, () => void>();
  const bridge = {
    call: (method: string, args: Record<string, unknown>) => {
      if (method === 'history.list') return Promise.resolve({ ok: true, value: { entries: [] } });
      if (method !== 'tables.survey') return Promise.resolve({ ok: false, error: { kind: 'validation', message: method } });
      const table = String(args.table);
      surveyed.push(table);
      return new Promise((resolve) => pending.set(table, () => resolve({ ok: true, value: { table, locks: 'empty' } })));
    },
    subscribe: () => () => undefined,
  } as unknown as LocksmithBridge;
  return { bridge, surveyed, answer: (table) => pending.get(table)?.() };
}

/** Lets every settled promise's callbacks run, inside act. */
const flush = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

function mount(bridge: LocksmithBridge, tables: readonly string[]): void {
  const root = createRoot(document.createElement('div'));
  cleanup = () => act(() => root.unmount());
  function Probe() {
    useOverview('endpoint:test', tables);
    return null;
  }
  act(() =>
    root.render(
      <BridgeProvider bridge={bridge}>
        <Probe />
      </BridgeProvider>,
    ),
  );
}

describe('useOverview while a table is being opened', () => {
  it('starts no survey until the opening table has its answer, then surveys every table', async () => {
    const { bridge, surveyed, answer } = fakeBridge();
    const opened = beginOpening();
    mount(bridge, ['a', 'b', 'c']);
    await flush();
    expect(surveyed).toEqual([]);
    opened();
    await flush();
    expect(surveyed).toEqual(['a', 'b']);
    answer('a');
    answer('b');
    await flush();
    expect(surveyed).toEqual(['a', 'b', 'c']);
  });

  it('lets the surveys already asked finish, but asks the next one only after the opening ends', async () => {
    const { bridge, surveyed, answer } = fakeBridge();
    mount(bridge, ['a', 'b', 'c', 'd']);
    await flush();
    expect(surveyed).toEqual(['a', 'b']);
    const opened = beginOpening();
    answer('a');
    answer('b');
    await flush();
    expect(surveyed).toEqual(['a', 'b']);
    opened();
    opened(); // a second call does nothing
    await flush();
    expect(surveyed).toEqual(['a', 'b', 'c', 'd']);
  });
});
