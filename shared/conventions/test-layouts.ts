/**
 * Test helpers: item builders for each preset's layout, so table-driven tests can write
 * "an account holding email x" or "a lock for x" once and run it on every preset.
 * Used by unit tests only; pure, so it may live in shared/.
 */
import type { Convention, Item, PresetName } from '../model';
import { formatLockItem, formatLockKey } from './format';
import { PRESET_DEFAULTS, PRESET_KEYS, presetConvention, type PresetOptions } from './presets';

/** Builders of account and lock items for one preset's layout. */
export interface Layout {
  readonly preset: PresetName;
  readonly convention: Convention;
  /** An account item with id `id` holding `values` (attribute → value). */
  account(id: string, values: Readonly<Record<string, string>>): Item;
  /** The hash key text an account with id `id` gets (what an owner attribute names). */
  accountHash(id: string): string;
  /** A lock item for `value` under rule `rule` (canonical template unless `templateIndex`). */
  lock(rule: string, value: string, extra?: Item, templateIndex?: number): Item;
  /** An item with exactly this hash (and range) key text. */
  raw(hash: string, range?: string, extra?: Item): Item;
}

/** Attribute-value shorthand for tests. */
export const S = (value: string): { S: string } => ({ S: value });

/** The layout of `preset` with its default rules, optionally overriding preset options. */
export function layoutFor(preset: PresetName, overrides: Partial<PresetOptions> = {}): Layout {
  const keys = PRESET_KEYS[preset];
  const convention = presetConvention(preset, keys, { ...PRESET_DEFAULTS[preset], ...overrides });
  const h = keys.hash.name;
  const r = keys.range?.name;
  const raw = (hash: string, range?: string, extra: Item = {}): Item => {
    const item: Item = { ...extra, [h]: S(hash) };
    if (r !== undefined && range !== undefined) item[r] = S(range);
    return item;
  };
  const attrs = (values: Readonly<Record<string, string>>): Item => Object.fromEntries(Object.entries(values).map(([k, v]) => [k, S(v)]));
  const accountHash = (id: string): string => {
    switch (preset) {
      case 'uniq':
        return `ACCT#${id}`;
      case 'onetable':
        return `User#${id}`;
      case 'marker':
      case 'aws-blog':
        return id;
      case 'electrodb':
        return `$app#id_${id}`;
    }
  };
  return {
    preset,
    convention,
    accountHash,
    account(id, values) {
      switch (preset) {
        case 'uniq':
          return raw(accountHash(id), 'PROFILE', attrs(values));
        case 'onetable':
          return raw(accountHash(id), 'User#', { ...attrs(values), _type: S('User') });
        case 'marker':
        case 'aws-blog':
          return raw(accountHash(id), undefined, attrs(values));
        case 'electrodb':
          return raw(accountHash(id), `$user_1#id_${id}`, { ...attrs(values), __edb_e__: S('user'), __edb_v__: S('1') });
      }
    },
    lock(ruleName, value, extra = {}, templateIndex = 0) {
      const rule = convention.rules.find((x) => x.name === ruleName);
      if (!rule) throw new Error(`no rule ${ruleName} in ${preset}`);
      const key = formatLockKey(rule, value, rule.lockKeys[templateIndex]);
      const typed = { ...Object.fromEntries(Object.entries(formatLockItem(rule, value, value)).map(([k, v]) => [k, S(v)])), ...extra };
      return raw(key.hash, key.range, typed);
    },
    raw,
  };
}
