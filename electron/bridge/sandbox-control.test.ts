import { describe, expect, it } from 'vitest';
import type { SandboxView } from '../../shared/contract/views';
import { err, ok } from '../../shared/result';
import { createSandboxController, type RunningSandbox } from './sandbox-control';

function fakeSandbox() {
  let exit: (value: unknown) => void = () => undefined;
  const exited = new Promise((resolve) => {
    exit = resolve;
  });
  let stops = 0;
  const sandbox: RunningSandbox = {
    endpoint: 'http://127.0.0.1:45000',
    stop: async () => {
      stops += 1;
      exit({ code: 0 });
    },
    exited,
  };
  return { sandbox, crash: () => exit({ code: 137 }), stops: () => stops };
}

const base = { region: 'us-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } };

describe('sandbox controller', () => {
  it('starts once even when asked twice, publishes each state, stops cleanly', async () => {
    const events: SandboxView[] = [];
    const fake = fakeSandbox();
    let starts = 0;
    const control = createSandboxController({
      ...base,
      publish: (v) => events.push(v),
      start: async () => ((starts += 1), ok(fake.sandbox)),
    });
    const [a, b] = await Promise.all([control.start(), control.start()]);
    expect(starts).toBe(1);
    expect(a).toEqual(b);
    expect(control.probe.endpoint()).toBe('http://127.0.0.1:45000');
    await control.stop();
    expect(fake.stops()).toBe(1);
    expect(events.map((e) => e.state)).toEqual(['starting', 'running', 'stopped']);
  });

  it('reports a missing Java as an error state with the fix', async () => {
    const control = createSandboxController({
      ...base,
      publish: () => undefined,
      start: async () => err('java-missing', 'Java 17+ is needed', { fix: 'apt-get install openjdk-17-jre-headless' }),
    });
    expect(await control.start()).toMatchObject({ ok: false, error: { kind: 'java-missing' } });
    expect(control.info()).toMatchObject({ state: 'error', error: { kind: 'java-missing' } });
  });

  it('shows an unexpected exit as an error', async () => {
    const events: SandboxView[] = [];
    const fake = fakeSandbox();
    const control = createSandboxController({ ...base, publish: (v) => events.push(v), start: async () => ok(fake.sandbox) });
    await control.start();
    fake.crash();
    await fake.sandbox.exited;
    await Promise.resolve();
    expect(control.info()).toMatchObject({ state: 'error', error: { kind: 'unreachable' } });
  });
});
