// @vitest-environment jsdom
/** The lock form's execute: once DynamoDB answered, the outcome stands, whatever happens to the re-check after it. */
import { act, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { lostAnswer, type LocksmithBridge, type LookupView } from '../../../../shared/contract';
import { BridgeProvider } from '../../bridge/bridge-context';
import { errorTitle, useLockForm, type LockFormFlow } from './use-lock-form';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const PREVIEW = { previewId: 'p1', confirm: 'ada', clientRequestToken: 'tok-7f3a' };
const SUCCEEDED = () => Promise.resolve({ ok: true, value: { status: 'succeeded', previewId: 'p1', verified: true } });

/** A bridge whose tx.execute does what `execute` says (succeeds by default) and whose lookup.run does what `recheck` says. */
function bridgeWith(recheck: () => Promise<unknown>, execute: () => Promise<unknown> = SUCCEEDED): LocksmithBridge {
  return {
    call: (method: string) => {
      if (method === 'tx.preview') return Promise.resolve({ ok: true, value: PREVIEW });
      if (method === 'tx.execute') return execute();
      if (method === 'lookup.run') return recheck();
      return Promise.resolve({ ok: false, error: { kind: 'validation', message: `unexpected ${method}` } });
    },
    subscribe: () => () => undefined,
  } as unknown as LocksmithBridge;
}

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

/** Runs preview → execute of a claim; returns the flow's last state and the lookups the inspector was patched with. */
async function claimWith(
  recheck: () => Promise<unknown>,
  execute?: () => Promise<unknown>,
): Promise<{ flow: LockFormFlow; patched: LookupView[] }> {
  const patched: LookupView[] = [];
  let flow: LockFormFlow | undefined;
  function Probe() {
    const f = useLockForm('endpoint:test', 'accounts', undefined, (l) => patched.push(l));
    useEffect(() => {
      flow = f;
    });
    return null;
  }
  const root = createRoot(document.createElement('div'));
  cleanup = () => act(() => root.unmount());
  await act(async () =>
    root.render(
      <BridgeProvider bridge={bridgeWith(recheck, execute)}>
        <Probe />
      </BridgeProvider>,
    ),
  );
  await act(async () => flow?.makePreview({ kind: 'claim', rule: 'HANDLE', value: 'ada', account: { PK: 'ACCT#a1', SK: 'PROFILE' } }));
  await act(async () => flow?.execute('ada'));
  if (!flow) throw new Error('not rendered');
  return { flow, patched };
}

describe('useLockForm', () => {
  it('an execute whose answer was lost is headlined "outcome unknown" and names the ClientRequestToken', async () => {
    const lost = () => Promise.resolve({ ok: false, error: lostAnswer('tx.execute', 'HTTP 502, not a Locksmith answer') });
    const { flow, patched } = await claimWith(() => Promise.reject(new Error('no re-check after an unknown outcome')), lost);
    expect(flow.step).toBe('preview');
    expect(errorTitle(flow)).toBe('Outcome unknown — the request may have been applied');
    expect(flow.error?.message).toContain('ClientRequestToken tok-7f3a');
    expect(flow.error?.fix).toMatch(/look the value up.*Activity tab/);
    expect(patched).toEqual([]);
  });

  it('a re-check that loses contact leaves the applied outcome on screen: "the re-check failed", never "not accepted"', async () => {
    const { flow, patched } = await claimWith(() => Promise.resolve({ ok: false, error: lostAnswer('lookup.run', 'socket closed') }));
    expect(flow.step).toBe('outcome');
    expect(flow.outcome?.status).toBe('succeeded');
    expect(errorTitle(flow)).toBe('The re-check failed');
    expect(patched).toEqual([]);
  });

  it('a re-check whose holder scan did not finish is shown, but never patched into the rows', async () => {
    const partial = {
      value: 'ada',
      method: 'scan',
      complete: false,
      reason: 'throttled',
      rules: [{ rule: 'HANDLE', normalized: 'ada', verdict: 'held', holders: [] }],
    };
    const { flow, patched } = await claimWith(() => Promise.resolve({ ok: true, value: partial }));
    expect(flow.step).toBe('outcome');
    expect(flow.recheck).toEqual(partial);
    expect(patched).toEqual([]);
  });
});
