/**
 * Reliability: credentials failing mid-session, faked at the SDK edge (the credential provider) —
 * an SSO session that expires during an audit and before an execute, an MFA code rejected or
 * cancelled when credentials are refreshed. Each ends in a clear, named state and writes nothing.
 * The fake credentials are recognisable, and every result and the activity log are searched for them.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScanCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { layoutFor } from '../../../shared/conventions/test-layouts';
import type { MfaPromptEvent } from '../../../shared/contract/views';
import type { Item } from '../../../shared/model';
import { keyOf } from '../../../shared/plain-key';
import { runAudit } from '../audit/run-audit';
import { createDynamoClient, type DynamoCredentials } from '../dynamo/client';
import { PreviewStore } from '../transactions/preview-store';
import { executePreview, previewTransaction, type TransactionContext } from '../transactions/service';
import { createTempTable, deleteTable, putItems, testClient } from '../../testing/dynamo-fixtures';
import { recordFigures } from '../../testing/reliability/figures';
import { credentialError, memoizeCredentials } from './credentials';
import { createMfaBroker } from './mfa-broker';

/** Recognisable fake secrets: none of them may ever leave the Node process. */
export const FAKE_KEY_ID = 'ASIALOCKSMITHFAKE0001';
const FAKE_SECRET = 'LocksmithFakeSecret0123456789abcdefghijk';
const FAKE_SESSION = 'LocksmithFakeSessionToken0123456789ABCDEFGH';
const MFA_CODE = '493817';
const SECRETS = [FAKE_KEY_ID, FAKE_SECRET, FAKE_SESSION, MFA_CODE];

const endpoint = inject('dynamoEndpoint');
const admin = testClient(endpoint);
const layout = layoutFor('uniq');
const conv = layout.convention;
const tables: string[] = [];
const clients: DynamoDBClient[] = [];
const produced: unknown[] = [];
let dataDir = '';

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'locksmith-cred-faults-'));
});
afterAll(async () => {
  for (const c of clients) c.destroy();
  await Promise.all(tables.map((t) => deleteTable(admin, t)));
  await rm(dataDir, { recursive: true, force: true });
});

async function table(items: readonly Item[]): Promise<string> {
  const name = await createTempTable(admin, conv.keys, 'cred-faults');
  tables.push(name);
  await putItems(admin, name, items);
  return name;
}

/** Short-lived temporary credentials: the SDK asks the provider again before every request. */
const identity = () => ({
  accessKeyId: FAKE_KEY_ID,
  secretAccessKey: FAKE_SECRET,
  sessionToken: FAKE_SESSION,
  expiration: new Date(Date.now() + 60_000),
});

/** The SDK's message when an SSO token has expired (fromSSO / fromIni with sso_session). */
function ssoExpired(): Error {
  return Object.assign(
    new Error(
      'The SSO session associated with this profile has expired or is otherwise invalid. To refresh this SSO session run aws sso login with the corresponding profile.',
    ),
    { name: 'CredentialsProviderError' },
  );
}

/** What STS answers to AssumeRole with a wrong TokenCode. */
function mfaRejected(): Error {
  return Object.assign(new Error('MultiFactorAuthentication failed with invalid MFA one time pass code. '), {
    name: 'AccessDenied',
    $fault: 'client',
    $metadata: { httpStatusCode: 403 },
  });
}

function clientWith(credentials: DynamoCredentials): DynamoDBClient {
  const client = createDynamoClient({ label: 'profile prod', endpoint, region: 'us-east-1', credentials, profile: 'prod' }, { env: {} });
  clients.push(client);
  return client;
}

function txContext(client: DynamoDBClient): TransactionContext {
  return {
    connectionId: 'profile:prod',
    client,
    connection: { label: 'profile prod', region: 'us-east-1', endpoint, profile: 'prod' },
    writable: true,
    secrets: [FAKE_SECRET, FAKE_SESSION],
    deps: { store: new PreviewStore(), dataDir, retry: { maxAttempts: 4, baseMs: 1, capMs: 5 } },
  };
}

const locksIn = async (name: string): Promise<number> =>
  ((await admin.send(new ScanCommand({ TableName: name, ConsistentRead: true }))).Items ?? []).filter((i) => i.PK?.S?.startsWith('UNIQ#'))
    .length;

describe('SSO session expiring mid-session', () => {
  it('during an audit: complete false, kind sso-expired with `aws sso login --profile prod`, partial counts never passed off as whole', async () => {
    const padding = 'x'.repeat(6_000);
    const name = await table(
      Array.from({ length: 500 }, (_, i) => ({ ...layout.account(`s${i}`, { username: `s${i}` }), padding: { S: padding } })),
    );
    let expired = false;
    const client = clientWith(async () => {
      if (expired) throw ssoExpired();
      return identity();
    });
    // The session expires as soon as the first page has arrived.
    const { report, error } = await runAudit({
      client,
      table: name,
      convention: conv,
      segments: 1,
      errorContext: { profile: 'prod', endpoint, table: name },
      onProgress: () => void (expired = true),
    });
    produced.push(report, error);
    expect(report.complete).toBe(false);
    expect(report.scanned).toBeGreaterThan(0);
    expect(report.scanned).toBeLessThan(500);
    expect(error).toMatchObject({ kind: 'sso-expired', fix: 'aws sso login --profile prod' });
    expect(report.reason).toMatch(/^scan failed: the SSO session of profile prod has expired/);
  });

  it('between preview and execute: the execute fails as sso-expired, nothing is written, the failure is logged', async () => {
    const account = layout.account('a1', { username: 'ada' });
    const name = await table([account]);
    let expired = false;
    const client = clientWith(async () => {
      if (expired) throw ssoExpired();
      return identity();
    });
    const ctx = txContext(client);
    const preview = await previewTransaction(ctx, {
      table: name,
      convention: conv,
      operation: { kind: 'claim', rule: 'HANDLE', value: 'ada', account: keyOf(account, conv.keys) },
    });
    if (!preview.ok) throw new Error(preview.error.message);
    expired = true;
    const result = await executePreview(ctx, { previewId: preview.value.id, confirmation: preview.value.confirm });
    produced.push(preview, result);
    expect(result).toMatchObject({ ok: false, error: { kind: 'sso-expired', fix: 'aws sso login --profile prod' } });
    expect(await locksIn(name)).toBe(0);
  });
});

describe('MFA failing when credentials are refreshed mid-session', () => {
  /** A provider like fromIni's assume-role-with-MFA: asks the broker for a code, STS checks it. */
  function mfaSession(answers: ('right' | 'wrong' | 'cancel')[]) {
    // The memo clock starts 10 minutes behind: the first identity (valid 60 s in real time) stays cached until expire().
    let now = Date.now() - 10 * 60_000;
    const prompts: MfaPromptEvent[] = [];
    const broker = createMfaBroker((event) => {
      prompts.push(event);
      if (event.type !== 'prompt') return;
      const answer = answers.shift() ?? 'cancel';
      // The renderer answers through the bridge, after the prompt is shown.
      queueMicrotask(() =>
        broker.answer(
          answer === 'cancel'
            ? { action: 'cancel', promptId: event.promptId }
            : { action: 'submit', promptId: event.promptId, code: answer === 'right' ? MFA_CODE : '000000' },
        ),
      );
    });
    const provider = memoizeCredentials(
      async () => {
        const code = await broker.ask('prod', 'arn:aws:iam::123456789012:mfa/ada');
        if (code !== MFA_CODE) throw mfaRejected();
        return identity();
      },
      () => now,
    );
    const expire = (): void => {
      now += 2 * 60 * 60_000;
    };
    return { provider, prompts, expire };
  }

  it.each<['wrong' | 'cancel', RegExp]>([
    ['wrong', /MFA code was rejected/],
    ['cancel', /MFA code entry for profile prod was cancelled/],
  ])('a %s code on refresh before execute: kind mfa-required, nothing written', async (second, message) => {
    const account = layout.account('a1', { username: 'grace' });
    const name = await table([account]);
    const session = mfaSession(['right', second]);
    const ctx = txContext(clientWith(session.provider));
    const preview = await previewTransaction(ctx, {
      table: name,
      convention: conv,
      operation: { kind: 'claim', rule: 'HANDLE', value: 'grace', account: keyOf(account, conv.keys) },
    });
    if (!preview.ok) throw new Error(preview.error.message);
    session.expire();
    const result = await executePreview(ctx, { previewId: preview.value.id, confirmation: preview.value.confirm });
    produced.push(preview, result, session.prompts);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.kind).toBe('mfa-required');
    expect(result.error.message).toMatch(message);
    expect(session.prompts.filter((p) => p.type === 'prompt')).toHaveLength(2);
    expect(await locksIn(name)).toBe(0);
    // The bridge maps provider failures the same way (credentialError is what the registry uses).
    expect(credentialError(second === 'wrong' ? mfaRejected() : new Error('x'), 'prod').kind).toBe(
      second === 'wrong' ? 'mfa-required' : 'aws',
    );
  });
});

describe('the fake credentials', () => {
  it('appear in no result, error or activity log line', async () => {
    const log = await readFile(join(dataDir, 'audit-log.jsonl'), 'utf8').catch(() => '');
    const everything = `${JSON.stringify(produced)}\n${log}`;
    expect(log.split('\n').filter(Boolean).length).toBe(3);
    for (const secret of SECRETS) expect(everything).not.toContain(secret);
    await recordFigures('credential-faults', { ssoExpiries: 2, mfaFailures: 2, writes: 0, secretsSearched: SECRETS.length, secretHits: 0 });
  });
});
