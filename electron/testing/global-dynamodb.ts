/**
 * Vitest globalSetup for the `integration` project: ONE DynamoDB Local per run (random free port,
 * in memory, -sharedDb), its endpoint handed to tests with `inject('dynamoEndpoint')`, stopped at the end.
 */
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../services/sandbox/dynamodb-local';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The endpoint of the run's shared DynamoDB Local, e.g. `http://127.0.0.1:41234`. */
    dynamoEndpoint: string;
    /** The pid of its JVM, for tests that need to know it is alive. */
    dynamoPid: number;
  }
}

/** Starts DynamoDB Local and provides its endpoint; returns the teardown that stops it. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = await startDynamoDbLocal({ heap: process.env.LOCKSMITH_TEST_HEAP ?? '1g' });
  if (!started.ok) {
    throw new Error(`Integration tests need DynamoDB Local: ${started.error.message}${started.error.fix ? ` — ${started.error.fix}` : ''}`);
  }
  const handle = started.value;
  project.provide('dynamoEndpoint', handle.endpoint);
  project.provide('dynamoPid', handle.pid);
  return () => handle.stop();
}
