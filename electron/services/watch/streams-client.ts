/** A DynamoDB Streams client for the same target as the table client: same credentials, region and endpoint. */
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { clientConfig, type DynamoTarget } from '../dynamo/client';

/**
 * The Streams endpoint for a table endpoint: DynamoDB Local (and any endpoint that is not AWS's)
 * serves Streams on the same URL; AWS's DynamoDB endpoint has a `streams.` twin.
 */
export function streamsEndpoint(tableEndpoint: string): string {
  return tableEndpoint.replace(/^(https?:\/\/)(dynamodb\.[a-z0-9-]+\.amazonaws\.com(?:\.cn)?)/i, '$1streams.$2');
}

/** Creates the Streams client for `target`. */
export function createStreamsClient(target: DynamoTarget, env: NodeJS.ProcessEnv = process.env): DynamoDBStreamsClient {
  const { endpoint, ...config } = clientConfig(target, env);
  // clientConfig resolves the endpoint a profile or the environment configures, as the table client uses it.
  return new DynamoDBStreamsClient(typeof endpoint === 'string' ? { ...config, endpoint: streamsEndpoint(endpoint) } : config);
}
