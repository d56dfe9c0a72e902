/**
 * The watch soak, in its own process with --expose-gc (watch-soak.reliability.int.test.ts starts
 * it): one watch runs for the whole budget over a stream-enabled table while cycles of healthy
 * transactions (signup, change email, delete account) and a break-and-fix (a raw account delete,
 * then its locks released) go by. After every cycle: heap used after a full GC, active handles,
 * and the watch's open problems. Prints one JSON summary line.
 * Usage: node --expose-gc --import tsx watch-soak-child.ts <endpoint> <durationMs> <maxCycles>
 */
import { DeleteItemCommand } from '@aws-sdk/client-dynamodb';
import { PRESET_DEFAULTS, PRESET_KEYS, presetConvention } from '../../../shared/conventions/presets';
import { ProblemTracker } from '../../../shared/watch/tracker';
import { describeTable } from '../../services/dynamo/tables';
import { SANDBOX_CREDENTIALS, SANDBOX_REGION } from '../../services/sandbox/dynamodb-local';
import { createStreamsClient } from '../../services/watch/streams-client';
import { changeEmail, createStreamTable, deleteAccount, EventLog, lockKey, signup } from '../../services/watch/testing-watch';
import { findWatchableStream, watchTable } from '../../services/watch/watch';
import { deleteTable, testClient } from '../dynamo-fixtures';

const [endpoint = '', durationText = '30000', cyclesText = '200'] = process.argv.slice(2);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

const convention = presetConvention('uniq', PRESET_KEYS.uniq, PRESET_DEFAULTS.uniq);
const client = testClient(endpoint);
const table = await createStreamTable(client, 'watch-soak');
const described = await describeTable(client, table);
const arn = await findWatchableStream(client, table);
if (!described.ok || !arn.ok) throw new Error('cannot watch the soak table');
const streams = createStreamsClient({ label: 'soak', endpoint, region: SANDBOX_REGION, credentials: SANDBOX_CREDENTIALS });
const tracker = new ProblemTracker();
let log = new EventLog();
let events = 0;
const controller = new AbortController();
const running = watchTable({
  client,
  streams,
  table: described.value,
  convention,
  streamArn: arn.value,
  signal: controller.signal,
  settleMs: 60,
  pollMs: 20,
  tracker,
  onEvent: (e) => (events++, log.push(e)),
});
await log.waitFor((e) => e.event === 'watching', 30_000, 'watching');

const samples: { heap: number; handles: number; open: number }[] = [];
const started = Date.now();
const deadline = started + Number(durationText);
let cycles = 0;
let writes = 0;
while (cycles < Number(cyclesText) && Date.now() < deadline) {
  // A fresh log per cycle: the soak measures the watch, not the test's own list of events.
  log = new EventLog();
  const id = `c${cycles}`;
  await signup(client, table, id, `${id}@example.com`, id);
  await changeEmail(client, table, id, `${id}@example.com`, `${id}.new@example.com`);
  await deleteAccount(client, table, id, `${id}.new@example.com`, id);
  await signup(client, table, `${id}x`, `${id}x@example.com`, `${id}x`);
  await client.send(new DeleteItemCommand({ TableName: table, Key: { PK: { S: `ACCT#${id}x` }, SK: { S: 'PROFILE' } } }));
  // Both orphans first: a lock fixed before its second look is never raised (and so never resolved).
  await log.waitFor((e) => e.event === 'problem' && e.problem.value === `${id}x`, 30_000, `orphan of cycle ${cycles}`);
  await log.waitFor((e) => e.event === 'problem' && e.problem.value === `${id}x@example.com`, 30_000, `orphan of cycle ${cycles}`);
  await client.send(new DeleteItemCommand({ TableName: table, Key: lockKey('EMAIL', `${id}x@example.com`) }));
  await client.send(new DeleteItemCommand({ TableName: table, Key: lockKey('HANDLE', `${id}x`) }));
  await log.waitFor((e) => e.event === 'resolved' && e.problem.value === `${id}x`, 30_000, `fix of cycle ${cycles}`);
  await log.waitFor((e) => e.event === 'resolved' && e.problem.value === `${id}x@example.com`, 30_000, `fix of cycle ${cycles}`);
  writes += 12;
  cycles += 1;
  gc();
  gc();
  samples.push({ heap: process.memoryUsage().heapUsed, handles: process.getActiveResourcesInfo().length, open: tracker.size });
}
const elapsedMs = Date.now() - started;
controller.abort();
await running;
streams.destroy();
await deleteTable(client, table);
client.destroy();
process.stdout.write(`${JSON.stringify({ cycles, writes, events, elapsedMs, samples })}\n`, () => process.exit(0));
