// The whole raw-scan process the CLI audit is compared with: plain Node + the SDK (no tsx, nothing
// of Locksmith), `segments` parallel ScanCommand loops with the audit's projection, items dropped.
//   node bench/raw-scan-process.mjs <endpoint> <table> <segments> '<projection JSON>'
// Prints {"items": N}. Credentials and region come from the environment, as the CLI's do.
import process from 'node:process';
import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';

const [endpoint, table, segmentsText, projectionJson] = process.argv.slice(2);
const segments = Number(segmentsText);
const projection = JSON.parse(projectionJson);
const client = new DynamoDBClient({ endpoint, region: process.env.AWS_REGION ?? 'us-east-1' });
let items = 0;
await Promise.all(
  Array.from({ length: segments }, async (_, segment) => {
    let startKey;
    do {
      const page = await client.send(
        new ScanCommand({
          TableName: table,
          ...(segments > 1 ? { Segment: segment, TotalSegments: segments } : {}),
          ProjectionExpression: projection.expression,
          ExpressionAttributeNames: projection.names,
          ExclusiveStartKey: startKey,
        }),
      );
      items += page.Count ?? 0;
      startKey = page.LastEvaluatedKey;
    } while (startKey);
  }),
);
client.destroy();
process.stdout.write(`${JSON.stringify({ items })}\n`);
