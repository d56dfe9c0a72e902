import { describe, expect, it } from 'vitest';
import type { Item } from '../../../shared/model';
import { err, ok, type Result } from '../../../shared/result';
import { createDynamoClient } from '../dynamo/client';
import { RecentReads, SAMPLE_SHARE_MS } from './recent-reads';

const client = () => createDynamoClient({ label: 'test', endpoint: 'http://127.0.0.1:9', region: 'us-east-1' });
const ITEMS: Item[] = [{ pk: { S: 'USER#1' } }];

/** A read that counts its calls and answers when told. */
function counted(result: Result<Item[]>): { read: () => Promise<Result<Item[]>>; calls: () => number } {
  let calls = 0;
  return { read: () => (calls++, Promise.resolve(result)), calls: () => calls };
}

describe('RecentReads', () => {
  it('lends a sample read in flight or just read to the next request of the same table and client', async () => {
    const samples = new RecentReads<Item[]>();
    const c = client();
    const first = counted(ok(ITEMS));
    const a = samples.lend(c, 'accounts', first.read);
    const b = samples.lend(c, 'accounts', first.read);
    expect(await b).toBe(await a);
    expect((await samples.lend(c, 'accounts', first.read)).ok).toBe(true);
    expect(first.calls()).toBe(1);
  });

  it('reads again for another table, another client, or once the sample is older than the share window', async () => {
    let now = 1_000;
    const samples = new RecentReads<Item[]>(SAMPLE_SHARE_MS, () => now);
    const c = client();
    const reads = counted(ok(ITEMS));
    await samples.lend(c, 'accounts', reads.read);
    await samples.lend(c, 'other', reads.read);
    await samples.lend(client(), 'accounts', reads.read);
    expect(reads.calls()).toBe(3);
    now += SAMPLE_SHARE_MS;
    await samples.lend(c, 'accounts', reads.read);
    expect(reads.calls()).toBe(4);
  });

  it('never lends a failed read: the next request reads again', async () => {
    const samples = new RecentReads<Item[]>();
    const c = client();
    const failing = counted(err('unreachable', 'connect ECONNREFUSED'));
    expect((await samples.lend(c, 'accounts', failing.read)).ok).toBe(false);
    const next = counted(ok(ITEMS));
    expect(await samples.lend(c, 'accounts', next.read)).toEqual(ok(ITEMS));
    expect(next.calls()).toBe(1);
  });

  it('lends to a borrower what a lender read, and keeps nothing a borrower reads itself', async () => {
    const descriptions = new RecentReads<Item[]>();
    const c = client();
    const borrowed = counted(ok(ITEMS));
    await descriptions.borrow(c, 'accounts', borrowed.read);
    await descriptions.borrow(c, 'accounts', borrowed.read);
    expect(borrowed.calls()).toBe(2);
    const lent = counted(ok(ITEMS));
    const reading = descriptions.lend(c, 'accounts', lent.read);
    expect(await descriptions.borrow(c, 'accounts', borrowed.read)).toBe(await reading);
    expect({ lent: lent.calls(), borrowed: borrowed.calls() }).toEqual({ lent: 1, borrowed: 2 });
  });
});
