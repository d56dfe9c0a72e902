import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { CliError } from '../command';
import type { Connection } from '../connection';
import {
  conventionGate,
  errorExit,
  keyFlag,
  outcomeExit,
  outcomeText,
  transactionContext,
  writeExit,
  type ConventionInUse,
} from './transaction-flow';

const connection = (local: boolean, profile?: string): Connection => ({
  target: {
    label: profile ? `profile ${profile}` : 'http://localhost:8000',
    region: 'eu-west-1',
    ...(profile ? { profile } : { endpoint: 'http://localhost:8000' }),
  },
  client: {} as DynamoDBClient,
  local,
  errorContext: {},
});

describe('write command flow', () => {
  it('reads a key flag as JSON and rejects anything else precisely', () => {
    expect(keyFlag({ account: '{"PK":"ACCT#a1","SK":"PROFILE"}' }, 'account')).toEqual({ PK: 'ACCT#a1', SK: 'PROFILE' });
    expect(keyFlag({}, 'account')).toBeUndefined();
    for (const [text, message] of [
      ['ACCT#a1', /--account: not JSON/],
      ['[1]', /give a JSON object of key attributes/],
      ['{"PK":{"S":"x"}}', /key attribute PK must be a string or a number/],
    ] as const) {
      expect(() => keyFlag({ account: text }, 'account')).toThrow(CliError);
      expect(() => keyFlag({ account: text }, 'account')).toThrow(message);
    }
  });

  it('endpoints are writable; AWS profiles only with --allow-writes', () => {
    expect(transactionContext(connection(true), {}, {}, 'http://localhost:8000').writable).toBe(true);
    expect(transactionContext(connection(false, 'prod'), {}, {}, undefined).writable).toBe(false);
    // A profile whose endpoint_url points at DynamoDB Local is still a profile: read-only until --allow-writes.
    expect(transactionContext(connection(true, 'prod'), {}, {}, 'http://localhost:8000').writable).toBe(false);
    expect(transactionContext(connection(false, 'prod'), { 'allow-writes': true }, {}, undefined)).toMatchObject({
      writable: true,
      connection: { label: 'profile prod', profile: 'prod', region: 'eu-west-1' },
    });
    expect(transactionContext(connection(false), {}, { AWS_SECRET_ACCESS_KEY: 's3cr3t!' }, undefined).secrets).toEqual(['s3cr3t!']);
  });

  it('an --endpoint on another host (or AWS itself) is read-only without --allow-writes (#16 finding 1)', () => {
    for (const endpoint of ['http://10.0.0.5:8000', 'https://dynamodb.us-east-1.amazonaws.com', 'http://127.0.0.1.nip.io:8000']) {
      expect(transactionContext(connection(true), {}, {}, endpoint).writable).toBe(false);
      expect(transactionContext(connection(true), { 'allow-writes': true }, {}, endpoint).writable).toBe(true);
    }
    expect(transactionContext(connection(true), {}, {}, 'http://127.0.0.1:8000').writable).toBe(true);
  });

  it('maps outcomes and errors to exit codes 0/1/2', () => {
    expect(outcomeExit({ status: 'succeeded', token: 't', attempts: 1, message: 'done' })).toBe(0);
    expect(outcomeExit({ status: 'refused', holders: [], message: 'held' })).toBe(1);
    const done = { status: 'succeeded', token: 't', attempts: 1, message: 'done' } as const;
    expect(writeExit(done, { verified: true, differences: [], unchecked: [] })).toBe(0);
    expect(writeExit(done, { verified: false, differences: ['UNIQ#HANDLE#ada / LOCK: not found'], unchecked: [] })).toBe(1);
    expect(errorExit('read-only')).toBe(1);
    expect(errorExit('conflict')).toBe(1);
    expect(errorExit('aws')).toBe(2);
    expect(errorExit('validation')).toBe(2);
  });

  it('prints each failed action with its position', () => {
    const text = outcomeText({
      status: 'cancelled',
      token: 't',
      attempts: 1,
      message: 'x',
      reasons: [
        { index: 0, code: 'None', message: 'fine' },
        {
          index: 1,
          code: 'ConditionalCheckFailed',
          message: 'handle `ada` is already held by ACCT#b',
          action: { operation: 'Put', keyText: 'UNIQ#HANDLE#ada / LOCK' },
        },
      ],
    });
    expect(text).toBe('cancelled, nothing was written:\n  action 2 (Put UNIQ#HANDLE#ada / LOCK): handle `ada` is already held by ACCT#b\n');
  });
});

describe('conventionGate', () => {
  const detected = {
    source: 'detected',
    detection: { confidence: 0.8, evidence: ['12 of 20 sampled items match UNIQ#EMAIL#'] },
  } as unknown as ConventionInUse;
  const gate = (interactive: boolean, json: boolean): string => {
    let err = '';
    conventionGate(
      { stdout: () => undefined, stderr: (t) => (err += t), env: {}, interactive, signal: new AbortController().signal },
      { json },
      detected,
      'writes',
    );
    return err;
  };
  it("shows a detection's evidence to a person at a terminal, --json or not (they are asked to confirm)", () => {
    expect(gate(true, true)).toContain('12 of 20 sampled items');
    expect(gate(true, false)).toContain('12 of 20 sampled items');
  });
  it("keeps a script's stderr quiet under --json", () => {
    expect(gate(false, true)).toBe('');
  });
});
