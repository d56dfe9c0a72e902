/**
 * The lock-key shapes of each preset, as detection sees them: which sampled items look like
 * locks, their tag (the part naming the rule) and value, and the preset options (account
 * prefix, OneTable model…) that the sample suggests.
 */
import type { Item, KeySchema, PresetName } from '../model';
import { fmt } from './detect-overlap';
import { ONETABLE_LEGACY_PREFIX, ONETABLE_PREFIX, UNIQ_LOCK_RANGE, UNIQ_PREFIX } from './presets';
import { mostCommon, text, type LockObservation, type LockScan } from './detect-scan';
import { electrodbScan } from './detect-shapes-electrodb';

const TAG_CHARS = /^[A-Za-z][A-Za-z0-9_-]{0,39}$/;

const identity = (tag: string): string => tag;

/** Finds the lock-looking items of `preset`'s shape in `sample`. */
export function findLocks(preset: PresetName, keys: KeySchema, sample: readonly Item[]): LockScan {
  switch (preset) {
    case 'uniq':
      return uniqScan(keys, sample);
    case 'onetable':
      return onetableScan(keys, sample);
    case 'marker':
    case 'aws-blog':
      return tagScan(preset, keys, sample);
    case 'electrodb':
      return electrodbScan(keys, sample);
  }
}

function uniqScan(keys: KeySchema, sample: readonly Item[]): LockScan {
  const locks: LockObservation[] = [];
  const ranges: string[] = [];
  for (const item of sample) {
    const hash = text(item, keys.hash.name);
    if (hash === undefined || !hash.startsWith(UNIQ_PREFIX)) continue;
    const rest = hash.slice(UNIQ_PREFIX.length);
    const at = rest.indexOf('#');
    if (at <= 0) continue;
    locks.push({ tag: rest.slice(0, at), value: rest.slice(at + 1), item });
    const range = text(item, keys.range?.name);
    if (range !== undefined) ranges.push(range);
  }
  const lockRange = mostCommon(ranges);
  return {
    locks,
    ignored: new Set(),
    ...(lockRange ? { note: `sort key \`${lockRange.value}\` on ${fmt(lockRange.count)}` } : {}),
    tagName: identity,
    ruleName: identity,
    presetOptions(accounts, attributes, evidence) {
      const holders = accounts.filter((a) => attributes.some((name) => a[name] !== undefined));
      const prefixes = holders
        .map((a) => text(a, keys.hash.name) ?? '')
        .map((h) => (h.includes('#') ? h.slice(0, h.indexOf('#') + 1) : ''));
      const prefix = mostCommon(prefixes);
      const range = mostCommon(holders.map((a) => text(a, keys.range?.name)).filter((r): r is string => r !== undefined));
      const where = `${keys.hash.name} \`${prefix?.value ?? ''}…\`${range ? ` and ${keys.range?.name ?? ''} \`${range.value}\`` : ''}`;
      evidence.push(`accounts: ${fmt(holders.length)} sampled items hold these attributes; ${fmt(prefix?.count ?? 0)} have ${where}`);
      return {
        accountPrefix: prefix?.value ?? '',
        ...(range ? { accountRange: range.value } : {}),
        ...(lockRange && lockRange.value !== UNIQ_LOCK_RANGE ? { lockRange: lockRange.value } : {}),
      };
    },
    extraPrefixes: () => [],
  };
}

function onetableScan(keys: KeySchema, sample: readonly Item[]): LockScan {
  const typeAttribute = '_type';
  const models = new Set<string>();
  for (const item of sample) {
    const type = text(item, typeAttribute);
    // OneTable's own models (_Unique, _Schema, _Migration…) start with an underscore.
    if (type !== undefined && !type.startsWith('_')) models.add(type);
  }
  const byLength = [...models].sort((a, b) => b.length - a.length);
  const all: LockObservation[] = [];
  for (const item of sample) {
    const hash = text(item, keys.hash.name);
    if (hash === undefined) continue;
    const obs = hash.startsWith(ONETABLE_PREFIX)
      ? parseCurrent(hash.slice(ONETABLE_PREFIX.length), byLength)
      : hash.startsWith(ONETABLE_LEGACY_PREFIX)
        ? parseLegacy(hash.slice(ONETABLE_LEGACY_PREFIX.length))
        : undefined;
    if (obs) all.push({ ...obs, item });
  }
  const model = mostCommon(all.map((l) => l.tag.slice(0, l.tag.indexOf('#'))))?.value ?? '';
  const locks = all.filter((l) => l.tag.startsWith(`${model}#`));
  const ignored = new Set<Item>(all.filter((l) => !l.tag.startsWith(`${model}#`)).map((l) => l.item));
  const lockItems = new Set(locks.map((l) => l.item));
  for (const item of sample) if (text(item, typeAttribute) !== model && !lockItems.has(item)) ignored.add(item);
  const others = all.length - locks.length;
  return {
    locks,
    ignored,
    typeAttribute,
    note: `model ${model}${others ? `; ${fmt(others)} locks of other models ignored (a convention covers one model)` : ''}`,
    tagName: (tag) => tag.slice(tag.indexOf('#') + 1),
    ruleName: (tag) => tag.replace('#', '.'),
    presetOptions(accounts, _attributes, evidence) {
      evidence.push(`accounts: ${fmt(accounts.length)} sampled items with ${typeAttribute} = \`${model}\``);
      return { model, typeAttribute };
    },
    extraPrefixes: () => [],
  };
}

/** `[scope#]Model#attr#value`: the model is found among sampled `_type` values (a scope may precede it). */
function parseCurrent(rest: string, models: readonly string[]): { tag: string; value: string; scope?: string } | undefined {
  for (const model of models) {
    let at = 0;
    if (!rest.startsWith(`${model}#`)) {
      const scoped = rest.indexOf(`#${model}#`);
      if (scoped < 0) continue;
      at = scoped + 1;
    }
    const afterModel = rest.slice(at + model.length + 1);
    const hashAt = afterModel.indexOf('#');
    if (hashAt <= 0) continue;
    const found = { tag: `${model}#${afterModel.slice(0, hashAt)}`, value: afterModel.slice(hashAt + 1) };
    return at === 0 ? found : { ...found, scope: rest.slice(0, at - 1) };
  }
  // No sampled account of this model: read it unscoped.
  const parts = rest.split('#');
  if (parts.length < 3 || !parts[0] || !parts[1]) return undefined;
  return { tag: `${parts[0]}#${parts[1]}`, value: parts.slice(2).join('#') };
}

/** `Model:attr:value` (legacy). */
function parseLegacy(rest: string): { tag: string; value: string } | undefined {
  const parts = rest.split(':');
  if (parts.length < 3 || !parts[0] || !parts[1]) return undefined;
  return { tag: `${parts[0]}#${parts[1]}`, value: parts.slice(2).join(':') };
}

/** Hash-only shapes: `<TAG>#value` on thin items (key plus at most two attributes: owner, TTL). */
function tagScan(preset: 'marker' | 'aws-blog', keys: KeySchema, sample: readonly Item[]): LockScan {
  const locks: LockObservation[] = [];
  for (const item of sample) {
    const hash = text(item, keys.hash.name);
    if (hash === undefined) continue;
    const at = hash.indexOf('#');
    if (at <= 0) continue;
    const tag = hash.slice(0, at);
    if (!TAG_CHARS.test(tag)) continue;
    const upper = tag === tag.toUpperCase();
    // Without a forced preset, upper-case tags read as marker (`NAME#`), others as aws-blog (`email#`).
    if ((preset === 'marker') !== upper) continue;
    let extra = 0;
    for (const name in item) if (name !== keys.hash.name && name !== keys.range?.name) extra++;
    if (extra > 2) continue;
    locks.push({ tag, value: hash.slice(at + 1), item });
  }
  return {
    locks,
    ignored: new Set(),
    tagName: identity,
    ruleName: identity,
    presetOptions: () => ({}),
    extraPrefixes: (tags) => tags.map((t) => `${t}#`),
  };
}

/** Like findLocks, but a forced preset accepts tags of either case. */
export function findLocksForced(preset: PresetName, keys: KeySchema, sample: readonly Item[]): LockScan {
  if (preset !== 'marker' && preset !== 'aws-blog') return findLocks(preset, keys, sample);
  const a = tagScan('marker', keys, sample);
  const b = tagScan('aws-blog', keys, sample);
  return { ...a, locks: [...a.locks, ...b.locks] };
}
