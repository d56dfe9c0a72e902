import { describe, expect, it, vi } from 'vitest';
import type { MfaPromptEvent } from '../../../shared/contract/views';
import { createMfaBroker, isMfaCancelled } from './mfa-broker';
import { credentialError, memoizeCredentials } from './credentials';

function setup(timeoutMs?: number) {
  const events: MfaPromptEvent[] = [];
  let n = 0;
  const broker = createMfaBroker((event) => events.push(event), { newId: () => `m${(n += 1)}`, ...(timeoutMs ? { timeoutMs } : {}) });
  return { broker, events };
}

describe('MFA broker', () => {
  it('asks one prompt at a time and hands the code to the SDK', async () => {
    const { broker, events } = setup();
    const first = broker.ask('prod', 'arn:mfa/ada');
    const second = broker.ask('stage', 'arn:mfa/ada');
    expect(events).toEqual([{ type: 'prompt', promptId: 'm1', profile: 'prod', serial: 'arn:mfa/ada' }]);
    expect(broker.answer({ action: 'submit', promptId: 'm2', code: '111111' })).toMatchObject({ ok: false, error: { kind: 'not-found' } });
    expect(broker.answer({ action: 'submit', promptId: 'm1', code: '123456' })).toEqual({ ok: true, value: { accepted: true } });
    await expect(first).resolves.toBe('123456');
    expect(events.slice(1)).toEqual([
      { type: 'closed', promptId: 'm1', reason: 'answered' },
      { type: 'prompt', promptId: 'm2', profile: 'stage', serial: 'arn:mfa/ada' },
    ]);
    broker.answer({ action: 'cancel', promptId: 'm2' });
    await expect(second).rejects.toSatisfy(isMfaCancelled);
  });

  it('turns a cancel into a clean mfa-required error, without the code anywhere', async () => {
    const { broker } = setup();
    const asked = broker.ask('prod', 'arn:mfa/ada');
    broker.answer({ action: 'cancel', promptId: 'm1' });
    const error = await asked.catch((cause: unknown) => cause);
    expect(credentialError(error, 'prod')).toMatchObject({
      kind: 'mfa-required',
      message: 'MFA code entry for profile prod was cancelled',
    });
  });

  it('times out an unanswered prompt', async () => {
    vi.useFakeTimers();
    try {
      const { broker, events } = setup(1000);
      const asked = broker.ask('prod', 'arn:mfa/ada');
      const outcome = asked.catch((cause: unknown) => cause);
      vi.advanceTimersByTime(1000);
      expect(isMfaCancelled(await outcome)).toBe(true);
      expect(events.at(-1)).toEqual({ type: 'closed', promptId: 'm1', reason: 'timeout' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('cancels everything on cancelAll', async () => {
    const { broker } = setup();
    const a = broker.ask('a', 's').catch((e: unknown) => e);
    const b = broker.ask('b', 's').catch((e: unknown) => e);
    broker.cancelAll();
    expect(isMfaCancelled(await a) && isMfaCancelled(await b)).toBe(true);
  });
});

describe('credentials', () => {
  it('maps an expired SSO session to sso-expired with the login command', () => {
    const error = Object.assign(new Error('The SSO session associated with this profile has expired or is otherwise invalid.'), {
      name: 'CredentialsProviderError',
    });
    expect(credentialError(error, 'corp')).toEqual(expect.objectContaining({ kind: 'sso-expired', fix: 'aws sso login --profile corp' }));
  });

  it('memoizes until shortly before expiry and retries after a failure', async () => {
    let now = 0;
    let calls = 0;
    const provider = vi.fn(async () => {
      calls += 1;
      if (calls === 1) throw new Error('first fails');
      return { accessKeyId: 'k', secretAccessKey: 's', expiration: new Date(60 * 60_000) };
    });
    const memo = memoizeCredentials(provider, () => now);
    await expect(memo()).rejects.toThrow('first fails');
    await memo();
    await memo();
    expect(provider).toHaveBeenCalledTimes(2);
    now = 56 * 60_000;
    await memo();
    expect(provider).toHaveBeenCalledTimes(3);
  });
});
