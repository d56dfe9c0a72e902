import { describe, expect, it } from 'vitest';
import { awsCliCommand, sdkV3Snippet, shellQuote } from './copy-as';
import type { TransactWriteInputJson } from './types';

const INPUT: TransactWriteInputJson = {
  TransactItems: [
    {
      Put: {
        TableName: 'accounts',
        Item: { PK: { S: "UNIQ#NAME#o'brien" }, bin: { B: 'AAE=' } },
        ConditionExpression: 'attribute_not_exists(#pk)',
        ExpressionAttributeNames: { '#pk': 'PK' },
      },
    },
  ],
  ClientRequestToken: '0f1e2d3c-0000-4000-8000-000000000000',
};

describe('copy-as', () => {
  it.each([
    ['plain', "'plain'"],
    ["o'brien", "'o'\\''brien'"],
    ["''", "''\\'''\\'''"],
    ['$HOME `x` "y" \\n', '\'$HOME `x` "y" \\n\''],
  ])('shell-quotes %j', (text, quoted) => {
    expect(shellQuote(text)).toBe(quoted);
  });

  it('the AWS CLI command carries the exact items, the token, region and endpoint', () => {
    const cmd = awsCliCommand(INPUT, { region: 'eu-central-1', endpoint: 'http://localhost:8000' });
    expect(cmd.split(' \\\n')[0]).toBe('aws dynamodb transact-write-items');
    expect(cmd).toContain(`--transact-items ${shellQuote(JSON.stringify(INPUT.TransactItems))}`);
    expect(cmd).toContain("--client-request-token '0f1e2d3c-0000-4000-8000-000000000000'");
    expect(cmd).toContain("--region 'eu-central-1'");
    expect(cmd).toContain("--endpoint-url 'http://localhost:8000'");
    // Round trip: what a POSIX shell would pass as the argument is the JSON itself.
    const arg = /--transact-items '((?:[^']|'\\'')*)'/.exec(cmd)?.[1]?.replace(/'\\''/g, "'");
    expect(JSON.parse(arg ?? '')).toEqual(INPUT.TransactItems);
  });

  it('the SDK v3 snippet sends the same input, with bytes for B values', () => {
    const ts = sdkV3Snippet(INPUT, { region: 'eu-central-1', profile: 'prod' });
    expect(ts).toContain("import { DynamoDBClient, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';");
    expect(ts).toContain(`credentials: fromIni({ profile: "prod" })`);
    expect(ts).toContain(`{ B: Buffer.from("AAE=", 'base64') }`);
    expect(ts).toContain('"#pk": "PK"');
    expect(ts).toContain('ClientRequestToken: "0f1e2d3c-0000-4000-8000-000000000000"');
    expect(ts).toContain(`S: "UNIQ#NAME#o'brien"`);
  });
});
