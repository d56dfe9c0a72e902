import { describe, expect, it } from 'vitest';
import { EXAMPLE_CONVENTION } from '../../shared/contract/examples';
import type { TableDetails } from '../../shared/contract/views';
import { ok } from '../../shared/result';
import { createHandlers } from './handlers';
import { createDispatcher, type SenderVerdict } from './pipeline';
import { createFakeDeps } from './testing/fake-deps';

const trusted: SenderVerdict = { trusted: true, label: 'main window' };
const quiet = { refused: () => undefined, failed: () => undefined };
/** A table without a sort key: EXAMPLE_CONVENTION's `range: LOCK` templates cannot fit it. */
const hashOnly: TableDetails = { name: 'accounts', keys: { hash: { name: 'PK', type: 'S' } }, indexes: [], itemCount: 0, sizeBytes: 0, status: 'ACTIVE' };

function setup(table: TableDetails) {
  const fake = createFakeDeps();
  fake.deps.data.describeTable = async () => {
    fake.calls.push('data.describeTable');
    return ok(table);
  };
  return { ...fake, dispatch: createDispatcher(createHandlers(fake.deps), quiet) };
}

describe("conventions from the caller are checked against the table's keys", () => {
  it.each([
    ['conventions.save', {}],
    ['audit.start', {}],
    ['lookup.run', { value: 'ada@lovelace.io' }],
    ['tx.preview', { request: { kind: 'release', rule: 'EMAIL', value: 'ada' } }],
  ] as const)('%s refuses a convention that does not fit, naming the field, and starts nothing', async (method, extra) => {
    const { dispatch, calls, writes } = setup(hashOnly);
    const result = await dispatch(method, { connectionId: 'sandbox', table: 'accounts', convention: EXAMPLE_CONVENTION, ...extra }, 'http', trusted);
    expect(result).toMatchObject({ ok: false, error: { kind: 'validation', field: 'convention.keys.range', message: expect.stringMatching(/^convention\.keys\.range: .*sort key/) } });
    expect(calls.filter((c) => c.startsWith('data.') && c !== 'data.describeTable')).toEqual([]);
    expect(writes()).toBe(0);
  });

  it('lets a convention that fits through', async () => {
    const { dispatch, calls } = setup({ ...hashOnly, keys: EXAMPLE_CONVENTION.keys });
    expect(await dispatch('conventions.save', { connectionId: 'sandbox', table: 'accounts', convention: EXAMPLE_CONVENTION }, 'http', trusted)).toEqual({ ok: true, value: { convention: EXAMPLE_CONVENTION } });
    expect(await dispatch('audit.start', { connectionId: 'sandbox', table: 'accounts', convention: EXAMPLE_CONVENTION }, 'http', trusted)).toMatchObject({ ok: true });
    expect(calls).toContain('data.startAudit');
  });
});
