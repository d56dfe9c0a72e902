/**
 * `npx tsx bench/hold-table.ts [items]`: starts DynamoDB Local, loads the benchmark table (seed-1
 * layout) and a 1,000-item table, prints the endpoint, then the latency model's endpoint in front of
 * it (`bench/latency-model.ts`), and keeps running until Ctrl+C. For profiling one subject by hand
 * (e.g. `locksmith audit --endpoint …` under `/usr/bin/time -v`), direct or as a user on AWS would
 * meet it, without paying for the load on every try.
 */
import { createDynamoClient } from '../electron/services/dynamo/client';
import { startDynamoDbLocal } from '../electron/services/sandbox/dynamodb-local';
import { startLatencyModel } from './latency-model';
import { createBenchTable, createPlainTable, loadBenchTable } from './table';

const items = Number(process.argv[2] ?? 200_000);
const started = await startDynamoDbLocal({ heap: items >= 500_000 ? '4g' : '2g' });
if (!started.ok) throw new Error(started.error.message);
const local = started.value;
const client = createDynamoClient({ label: 'bench', endpoint: local.endpoint, region: 'us-east-1' });
await createBenchTable(client, 'bench_accounts');
await loadBenchTable(client, 'bench_accounts', items);
await createPlainTable(client, 'bench_tiny');
await loadBenchTable(client, 'bench_tiny', 1_000);
client.destroy();
const model = await startLatencyModel(local.endpoint, undefined, { describe: ['bench_accounts', 'bench_tiny'] });
process.stdout.write(`direct: ${local.endpoint}\nmodel:  ${model.endpoint}\n`);
const stop = (): void => void model.stop().then(() => local.stop().then(() => process.exit(0)));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
setInterval(() => undefined, 1 << 30);
