// @vitest-environment jsdom
/** The Live toggle follows the convention the page shows: audited again under another one, the watch is started again with it. */
import { act, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { LocksmithBridge } from '../../../../shared/contract';
import { PRESET_DEFAULTS, PRESET_KEYS, presetConvention } from '../../../../shared/conventions/presets';
import type { Convention } from '../../../../shared/model';
import { BridgeProvider } from '../../bridge/bridge-context';
import { useLiveWatch, type LiveWatchState } from './use-live-watch';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** A bridge that answers watch.start / watch.stop and records them. */
function fakeBridge(): { bridge: LocksmithBridge; calls: { method: string; args: Record<string, unknown> }[] } {
  const calls: { method: string; args: Record<string, unknown> }[] = [];
  let next = 0;
  const bridge = {
    call: (method: string, args: Record<string, unknown>) => {
      calls.push({ method, args });
      if (method === 'watch.start') return Promise.resolve({ ok: true, value: { watchId: `w${++next}`, streamArn: 'arn', settleMs: 1 } });
      return Promise.resolve({ ok: true, value: { stopped: true } });
    },
    subscribe: () => () => undefined,
  } as unknown as LocksmithBridge;
  return { bridge, calls };
}

const full = presetConvention('uniq', PRESET_KEYS.uniq, PRESET_DEFAULTS.uniq);
const emailOnly: Convention = { ...full, rules: full.rules.filter((r) => r.name === 'EMAIL') };

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

describe('useLiveWatch', () => {
  it('starts the watch again with the new convention when the page audits under another one', async () => {
    const { bridge, calls } = fakeBridge();
    const container = document.createElement('div');
    const root = createRoot(container);
    cleanup = () => act(() => root.unmount());
    let state: LiveWatchState | undefined;
    function Probe({ convention }: { convention: Convention }) {
      const live = useLiveWatch('endpoint:test', 'accounts', convention);
      useEffect(() => {
        state = live;
      });
      return null;
    }
    const render = (convention: Convention) =>
      act(() =>
        root.render(
          <BridgeProvider bridge={bridge}>
            <Probe convention={convention} />
          </BridgeProvider>,
        ),
      );
    await render(emailOnly);
    await act(async () => state?.toggle(true));
    expect(calls.filter((c) => c.method === 'watch.start').map((c) => c.args.convention)).toEqual([emailOnly]);

    // Same convention, a new object (a re-render): nothing restarts.
    await render({ ...emailOnly });
    expect(calls.filter((c) => c.method === 'watch.start')).toHaveLength(1);

    await render(full);
    await act(async () => undefined);
    expect(calls.map((c) => c.method)).toEqual(['watch.start', 'watch.stop', 'watch.start']);
    expect(calls[1]?.args).toEqual({ watchId: 'w1' });
    expect(calls[2]?.args.convention).toEqual(full);
    expect(state?.on).toBe(true);
  });
});
