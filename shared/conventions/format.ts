/** Formatting lock keys from a rule's template (the write direction; parsing lives in parse.ts). */
import type { LockKeyTemplate, LockRule } from '../model';

/** The placeholder every hash template contains exactly once. */
export const VALUE_PLACEHOLDER = '{value}';

/** The text of a lock key: hash value and (for hash+range tables) the range value. */
export interface LockKeyText {
  readonly hash: string;
  readonly range?: string;
}

/** Writes the lock key for `value` with the template (default: the rule's canonical, first template). */
export function formatLockKey(rule: LockRule, value: string, template: LockKeyTemplate | undefined = rule.lockKeys[0]): LockKeyText {
  if (!template) throw new Error(`rule ${rule.name} has no lock key template`);
  const hash = template.hash.split(VALUE_PLACEHOLDER).join(value);
  return template.range === undefined ? { hash } : { hash, range: template.range };
}
