/** The small uniq table both lookup integration suites read: a held value, a duplicate, a missing lock, an orphan with `#`. */
import { PRESET_DEFAULTS, PRESET_KEYS, presetConvention } from '../../../../shared/conventions/presets';
import type { Item } from '../../../../shared/model';

/** The uniq preset's keys (PK / SK). */
export const keys = PRESET_KEYS.uniq;
/** The uniq preset's convention over those keys. */
export const convention = presetConvention('uniq', keys, PRESET_DEFAULTS.uniq);
const s = (value: string): { S: string } => ({ S: value });
/** An account item with an email and a username. */
export const account = (id: string, email: string, username: string): Item => ({
  PK: s(`ACCT#${id}`),
  SK: s('PROFILE'),
  email: s(email),
  username: s(username),
});
/** A lock item of a rule tag (`EMAIL`, `HANDLE`) and a value. */
export const lock = (tag: string, value: string): Item => ({ PK: s(`UNIQ#${tag}#${value}`), SK: s('LOCK') });

/** The table's items. */
export const ITEMS: Item[] = [
  account('1', 'Ada@Lovelace.io', 'ada'),
  lock('EMAIL', 'ada@lovelace.io'),
  lock('HANDLE', 'ada'),
  account('2', 'dup@x.io', 'two'),
  account('3', 'dup@x.io', 'three'),
  lock('EMAIL', 'dup@x.io'),
  account('4', 'nolock@x.io', 'four'),
  lock('EMAIL', 'orphan#1@x.io'),
];
