import { describe, expect, it } from 'vitest';
import type { Item } from '../../../shared/model';
import { err, ok, type Result } from '../../../shared/result';
import { createDynamoClient } from '../dynamo/client';
import { RecentSamples, SAMPLE_SHARE_MS } from './recent-samples';

const client = () => createDynamoClient({ label: 'test', endpoint: 'http://127.0.0.1:9', region: 'us-east-1' });
const ITEMS: Item[] = [{ pk: { S: 'USER#1' } }];

/** A read that counts its calls and answers when told. */
function counted(result: Result<Item[]>): { read: () => Promise<Result<Item[]>>; calls: () => number } {
  let calls = 0;
  return { read: () => (calls++, Promise.resolve(result)), calls: () => calls };
}

describe('RecentSamples', () => {
  it('lends a sample read in flight or just read to the next request of the same table and client', async () => {
    const samples = new RecentSamples();
    const c = client();
    const first = counted(ok(ITEMS));
    const a = samples.sample(c, 'accounts', first.read);
    const b = samples.sample(c, 'accounts', first.read);
    expect(await b).toBe(await a);
    expect((await samples.sample(c, 'accounts', first.read)).ok).toBe(true);
    expect(first.calls()).toBe(1);
  });

  it('reads again for another table, another client, or once the sample is older than the share window', async () => {
    let now = 1_000;
    const samples = new RecentSamples(SAMPLE_SHARE_MS, () => now);
    const c = client();
    const reads = counted(ok(ITEMS));
    await samples.sample(c, 'accounts', reads.read);
    await samples.sample(c, 'other', reads.read);
    await samples.sample(client(), 'accounts', reads.read);
    expect(reads.calls()).toBe(3);
    now += SAMPLE_SHARE_MS;
    await samples.sample(c, 'accounts', reads.read);
    expect(reads.calls()).toBe(4);
  });

  it('never lends a failed read: the next request reads again', async () => {
    const samples = new RecentSamples();
    const c = client();
    const failing = counted(err('unreachable', 'connect ECONNREFUSED'));
    expect((await samples.sample(c, 'accounts', failing.read)).ok).toBe(false);
    const next = counted(ok(ITEMS));
    expect(await samples.sample(c, 'accounts', next.read)).toEqual(ok(ITEMS));
    expect(next.calls()).toBe(1);
  });
});
