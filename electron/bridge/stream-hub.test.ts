import { describe, expect, it, vi } from 'vitest';
import { rememberSecrets } from '../services/dynamo/secrets';
import { createStreamHub } from './stream-hub';

describe('stream hub', () => {
  it('replays the current state to a late subscriber, then delivers live events', () => {
    const hub = createStreamHub();
    hub.setReplay('sandbox.status', () => [{ state: 'running' as const, endpoint: 'http://127.0.0.1:1' }]);
    const seen = vi.fn();
    const subscribed = hub.subscribe('sandbox.status', {}, seen);
    hub.publish('sandbox.status', { state: 'stopped' });
    expect(seen.mock.calls.map(([e]) => e.state)).toEqual(['running', 'stopped']);
    if (subscribed.ok) subscribed.value();
    hub.publish('sandbox.status', { state: 'running' });
    expect(seen).toHaveBeenCalledTimes(2);
  });

  it('drops a subscriber whose delivery throws, and keeps serving the others', () => {
    const errors = vi.fn();
    const hub = createStreamHub(errors);
    const good = vi.fn();
    hub.subscribe('sandbox.status', {}, () => {
      throw new Error('window gone');
    });
    hub.subscribe('sandbox.status', {}, good);
    hub.publish('sandbox.status', { state: 'stopped' });
    hub.publish('sandbox.status', { state: 'running' });
    expect(good).toHaveBeenCalledTimes(2);
    expect(errors).toHaveBeenCalledTimes(1);
    expect(hub.size()).toBe(1);
  });

  it('validates stream names and filters', () => {
    const hub = createStreamHub();
    expect(hub.subscribe('__proto__', {}, () => undefined)).toMatchObject({ ok: false });
    expect(hub.subscribe('audit.events', {}, () => undefined)).toMatchObject({ ok: false, error: { field: 'runId' } });
  });

  it('removes known secrets from every event it delivers, live or replayed (error text reaches statuses and reports)', () => {
    const token = 'StreamHubTestSessionToken0123456789abcdef';
    rememberSecrets(token);
    const hub = createStreamHub();
    const reason = `cannot read s3://bucket/data.json.gz: AccessDenied (request signed with token ${token})`;
    hub.setReplay('sandbox.status', () => [{ state: 'error' as const, error: { kind: 'aws' as const, message: reason } }]);
    const seen: unknown[] = [];
    hub.subscribe('sandbox.status', {}, (e) => seen.push(e));
    hub.publish('sandbox.status', { state: 'error', error: { kind: 'aws', message: reason } });
    expect(seen).toHaveLength(2);
    expect(JSON.stringify(seen)).not.toContain(token);
    expect(seen).toEqual([
      {
        state: 'error',
        error: { kind: 'aws', message: 'cannot read s3://bucket/data.json.gz: AccessDenied (request signed with token ***)' },
      },
      {
        state: 'error',
        error: { kind: 'aws', message: 'cannot read s3://bucket/data.json.gz: AccessDenied (request signed with token ***)' },
      },
    ]);
  });

  it('tells the presence hook how many subscriptions share a filter, as each begins and ends (a dropped window included)', () => {
    const hub = createStreamHub();
    const seen: string[] = [];
    hub.setPresence('watch.events', (filter, listening) => seen.push(`${String(filter.watchId)}:${listening}`));
    const a1 = hub.subscribe('watch.events', { watchId: 'a' }, () => undefined);
    const a2 = hub.subscribe('watch.events', { watchId: 'a' }, () => {
      throw new Error('window gone');
    });
    const b = hub.subscribe('watch.events', { watchId: 'b' }, () => undefined);
    hub.publish('watch.events', { event: 'status', watchId: 'a', status: 'live' });
    if (a1.ok) a1.value();
    if (b.ok) b.value();
    expect(a2.ok).toBe(true);
    expect(seen).toEqual(['a:1', 'a:2', 'b:1', 'a:1', 'a:0', 'b:0']);
  });
});
