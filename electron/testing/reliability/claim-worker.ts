/**
 * One contender of the cross-process race (claim-race.reliability.int.test.ts): previews a claim of
 * the value for its account, prints `ready`, waits for `go` on stdin, executes, prints the outcome as JSON.
 * Usage (the test bundles it first): node claim-worker.mjs <endpoint> <table> <account-id> <value> <data-dir>
 */
import { createInterface } from 'node:readline';
import { layoutFor } from '../../../shared/conventions/test-layouts';
import { keyOf } from '../../../shared/plain-key';
import { createDynamoClient } from '../../services/dynamo/client';
import { executePreview, previewTransaction } from '../../services/transactions/service';

const [endpoint = '', table = '', accountId = '', value = '', dataDir = ''] = process.argv.slice(2);
const conv = layoutFor('uniq', { ownerAttribute: 'owner' }).convention;
const client = createDynamoClient({ label: 'race', endpoint, region: 'us-east-1' }, { env: {} });
const ctx = {
  connectionId: 'race',
  client,
  connection: { label: 'race', region: 'us-east-1', endpoint },
  writable: true,
  deps: { dataDir, holderSegments: 1 },
};
const account = keyOf(layoutFor('uniq', { ownerAttribute: 'owner' }).account(accountId, {}), conv.keys);

const preview = await previewTransaction(ctx, { table, convention: conv, operation: { kind: 'claim', rule: 'HANDLE', value, account } });
if (!preview.ok) {
  process.stdout.write(`${JSON.stringify({ status: 'preview-failed', error: preview.error })}\n`);
  process.exit(2);
}
process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin });
for await (const line of lines) if (line.trim() === 'go') break;
const result = await executePreview(ctx, { previewId: preview.value.id, confirmation: preview.value.confirm });
const outcome = result.ok ? result.value : { status: 'error', error: result.error };
process.stdout.write(`${JSON.stringify(outcome)}\n`, () => process.exit(result.ok && result.value.status === 'succeeded' ? 0 : 1));
