/** Copy-as forms of the exact previewed request: an AWS CLI command and an SDK v3 TypeScript snippet. */
import type { PreviewConnection, TransactWriteInputJson } from './types';

/** Quotes text for a POSIX shell: inside single quotes, each `'` becomes `'\''`. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Where the copied command should point; credentials are never part of it. */
export type CopyTarget = Pick<PreviewConnection, 'region' | 'endpoint' | 'profile'>;

/** `aws dynamodb transact-write-items --transact-items '…' --client-request-token …` with region/endpoint/profile. */
export function awsCliCommand(input: TransactWriteInputJson, target: Partial<CopyTarget> = {}): string {
  const lines = [
    'aws dynamodb transact-write-items',
    `  --transact-items ${shellQuote(JSON.stringify(input.TransactItems))}`,
    `  --client-request-token ${shellQuote(input.ClientRequestToken)}`,
  ];
  if (target.region) lines.push(`  --region ${shellQuote(target.region)}`);
  if (target.endpoint) lines.push(`  --endpoint-url ${shellQuote(target.endpoint)}`);
  if (target.profile) lines.push(`  --profile ${shellQuote(target.profile)}`);
  return lines.join(' \\\n');
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Writes a JSON value as a TypeScript literal; `{"B": "…"}` values become `Buffer.from('…', 'base64')` as the SDK wants bytes. */
function tsLiteral(value: unknown, indent: string): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => `${inner}${tsLiteral(v, inner)}`).join(',\n')},\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 1 && entries[0]?.[0] === 'B' && typeof entries[0][1] === 'string') {
    return `{ B: Buffer.from(${JSON.stringify(entries[0][1])}, 'base64') }`;
  }
  if (entries.length === 0) return '{}';
  const body = entries.map(([k, v]) => `${inner}${IDENTIFIER.test(k) ? k : JSON.stringify(k)}: ${tsLiteral(v, inner)}`).join(',\n');
  return `{\n${body},\n${indent}}`;
}

/** An SDK v3 TypeScript snippet sending exactly this input. */
export function sdkV3Snippet(input: TransactWriteInputJson, target: Partial<CopyTarget> = {}): string {
  const config: string[] = [];
  if (target.region) config.push(`region: ${JSON.stringify(target.region)}`);
  if (target.endpoint) config.push(`endpoint: ${JSON.stringify(target.endpoint)}`);
  const header = target.profile ? `import { fromIni } from '@aws-sdk/credential-providers';\n` : '';
  if (target.profile) config.push(`credentials: fromIni({ profile: ${JSON.stringify(target.profile)} })`);
  return [
    `import { DynamoDBClient, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';`,
    header ? header.trimEnd() : undefined,
    '',
    `const client = new DynamoDBClient({ ${config.join(', ')} });`,
    `await client.send(new TransactWriteItemsCommand(${tsLiteral(input, '')}));`,
    '',
  ]
    .filter((line) => line !== undefined)
    .join('\n');
}
