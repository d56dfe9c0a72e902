import { describe, expect, it } from 'vitest';
import { err, ok, type Result } from '../../shared/result';
import { recentCache } from './recent-cache';

describe('recentCache', () => {
  it('loads once per key while the answer is recent, again after', async () => {
    let now = 1_000;
    const cache = recentCache<number>(5_000, 10, () => now);
    let loads = 0;
    const load = (): Promise<Result<number>> => Promise.resolve(ok(++loads));
    const [a, b] = await Promise.all([cache.get('t', load), cache.get('t', load)]);
    expect([a, b]).toEqual([ok(1), ok(1)]);
    now += 4_999;
    expect(await cache.get('t', load)).toEqual(ok(1));
    expect(await cache.get('other', load)).toEqual(ok(2));
    now += 1;
    expect(await cache.get('t', load)).toEqual(ok(3));
  });

  it('forgets failures and rejections at once', async () => {
    const cache = recentCache<number>(5_000, 10, () => 0);
    let loads = 0;
    await cache.get('t', () => Promise.resolve(err('not-found', `missing ${++loads}`)));
    expect(await cache.get('t', () => Promise.resolve(ok(++loads)))).toEqual(ok(2));
    await cache.get('u', () => Promise.reject(new Error('boom'))).catch(() => undefined);
    expect(await cache.get('u', () => Promise.resolve(ok(7)))).toEqual(ok(7));
  });

  it('keeps at most max keys', async () => {
    const cache = recentCache<string>(5_000, 2, () => 0);
    let loads = 0;
    const load = (): Promise<Result<string>> => Promise.resolve(ok(`v${++loads}`));
    await cache.get('a', load);
    await cache.get('b', load);
    await cache.get('c', load); // full: emptied, then c kept
    expect(await cache.get('a', load)).toEqual(ok('v4'));
    expect(await cache.get('c', load)).toEqual(ok('v3'));
  });
});
