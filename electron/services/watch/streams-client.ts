/** A DynamoDB Streams client for the same target as the table client: same credentials, region and local endpoint. */
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { clientConfig, type DynamoTarget } from '../dynamo/client';

/** Creates the Streams client for `target`. */
export function createStreamsClient(target: DynamoTarget, env: NodeJS.ProcessEnv = process.env): DynamoDBStreamsClient {
  const { endpoint: _tableEndpoint, ...config } = clientConfig(target, env);
  // DynamoDB Local serves Streams on its one endpoint; on AWS the Streams service has its own, which the SDK knows.
  return new DynamoDBStreamsClient(target.endpoint ? { ...config, endpoint: target.endpoint } : config);
}
