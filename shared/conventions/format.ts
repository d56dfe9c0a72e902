/** Formatting lock keys and lock items from a rule's templates (the write direction; parsing lives in parse.ts). */
import type { LockKeyTemplate, LockRule } from '../model';
import { scopeParts, type ScopeValues } from './scope';
import { fillTemplate, VALUE_PLACEHOLDER } from './template';

export { VALUE_PLACEHOLDER };

/** The text of a lock key: hash value and (for hash+range tables) the range value, each with its placeholders filled. */
export interface LockKeyText {
  readonly hash: string;
  readonly range?: string;
}

/**
 * Writes the lock key for `value` (and, for a scoped rule, its scope values) with the template
 * (default: the rule's canonical, first template).
 */
export function formatLockKey(
  rule: LockRule,
  value: string,
  template: LockKeyTemplate | undefined = rule.lockKeys[0],
  scope?: ScopeValues,
): LockKeyText {
  if (!template) throw new Error(`rule ${rule.name} has no lock key template`);
  const parts = scopeParts(rule, scope);
  const hash = fillTemplate(template.hash, value, parts);
  return template.range === undefined ? { hash } : { hash, range: fillTemplate(template.range, value, parts) };
}

/**
 * The extra attributes of a lock item (the rule's lockItem templates) for a value: `{value}` as in
 * the key, `{raw}` as the holder stores it, `{rule}`, and the scope placeholders.
 */
export function formatLockItem(rule: LockRule, value: string, raw: string, scope?: ScopeValues): Record<string, string> {
  const out: Record<string, string> = {};
  if (!rule.lockItem) return out;
  const parts = { ...scopeParts(rule, scope), raw, rule: rule.name };
  for (const [attribute, template] of Object.entries(rule.lockItem)) out[attribute] = fillTemplate(template, value, parts);
  return out;
}
