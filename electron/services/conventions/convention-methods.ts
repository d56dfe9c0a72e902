/** The app's convention methods: `conventions.detect` (with a digest of the sample), `conventions.get`, `conventions.save`. */
import type { DetectionView, SampleDigest, SavedConventionView } from '../../../shared/contract/views';
import { classifyItem } from '../../../shared/conventions/classify';
import type { Convention, Item } from '../../../shared/model';
import { ok, type Result } from '../../../shared/result';
import type { SettingsStore } from '../connections/settings-store';
import { conventionKey } from '../connections/settings-store';
import { detectForTable, startSample } from '../context/convention-choice';
import type { ConnectionContext, ConventionContext } from '../context/request-context';
import { tableContext } from '../context/request-context';
import { describeTable } from '../dynamo/tables';

/** Hash keys of non-account items sent with a detection, enough to check a template, small enough to send. */
const MAX_DIGEST_HASHES = 500;

/**
 * Proposes a convention from a bounded sample, with evidence and a digest the editor checks drafts
 * against. It describes the table itself (once), to read the sample beside the DescribeTable.
 */
export async function detectView(
  ctx: ConnectionContext,
  args: { readonly table: string; readonly sampleSize?: number | undefined },
): Promise<Result<DetectionView>> {
  const sample = startSample(ctx.client, args.table, {
    ...(args.sampleSize ? { sampleSize: args.sampleSize } : {}),
    errorContext: { ...ctx.errorContext, table: args.table },
  });
  const info = await describeTable(ctx.client, args.table, { local: ctx.local });
  if (!info.ok) return info;
  const detected = await detectForTable(tableContext(ctx, info.value), args.sampleSize, sample);
  if (!detected.ok) return detected;
  const { convention, evidence } = detected.value.detection;
  return ok({ convention, evidence, sampled: detected.value.sample.length, sample: sampleDigest(convention, detected.value.sample) });
}

/** The convention saved for a table, if any. */
export async function savedConvention(settings: SettingsStore, connectionId: string, table: string): Promise<Convention | undefined> {
  return (await settings.read()).conventions[conventionKey(connectionId, table)];
}

/** `conventions.get`: the saved convention, or null. */
export async function getSavedConvention(
  settings: SettingsStore,
  args: { readonly connectionId: string; readonly table: string },
): Promise<Result<SavedConventionView>> {
  return ok({ convention: (await savedConvention(settings, args.connectionId, args.table)) ?? null });
}

/** Saves the request's convention (already checked against the table by the context) for its table. */
export async function saveConvention(ctx: ConventionContext, settings: SettingsStore): Promise<Result<SavedConventionView>> {
  const { convention } = ctx;
  await settings.update((s) => ({
    ...s,
    conventions: { ...s.conventions, [conventionKey(ctx.connectionId, ctx.table.name)]: convention },
  }));
  return ok({ convention });
}

/** The sample as the convention editor checks drafts against it: no attribute values, only names, counts and key texts. */
function sampleDigest(convention: Convention, items: readonly Item[]): SampleDigest {
  const attributes: Record<string, number> = {};
  const otherHashes: string[] = [];
  const otherRanges: (string | null)[] = [];
  const rangeName = convention.keys.range?.name;
  let accounts = 0;
  for (const item of items) {
    if (classifyItem(convention, item).kind === 'account') {
      accounts += 1;
      for (const [name, value] of Object.entries(item))
        if (value.S !== undefined || value.N !== undefined) attributes[name] = (attributes[name] ?? 0) + 1;
    } else {
      const hash = item[convention.keys.hash.name]?.S;
      if (hash !== undefined && otherHashes.length < MAX_DIGEST_HASHES) {
        otherHashes.push(hash);
        if (rangeName !== undefined) otherRanges.push(item[rangeName]?.S ?? null);
      }
    }
  }
  return rangeName === undefined ? { accounts, attributes, otherHashes } : { accounts, attributes, otherHashes, otherRanges };
}
