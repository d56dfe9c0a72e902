/**
 * DynamoDB key size limits, counted the way DynamoDB counts them: UTF-8 bytes.
 * A lock key is `prefix + value`, so a long email or a Korean name can push it over
 * the limit; the UI and the transaction builders check before sending anything.
 */
import { formatLockKey } from './conventions/format';
import type { LockRule } from './model';
import { err, ok, type Result } from './result';
import { countText } from './count-text';

/** Maximum size of a partition (hash) key value, in UTF-8 bytes. */
export const PARTITION_KEY_MAX_BYTES = 2048;
/** Maximum size of a sort (range) key value, in UTF-8 bytes. */
export const SORT_KEY_MAX_BYTES = 1024;

/** Number of bytes `text` takes in UTF-8 (a lone surrogate counts 3, as TextEncoder writes U+FFFD). */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** Which part of the primary key a text is checked as. */
export type KeyPart = 'partition' | 'sort';

const fmt = countText;

/** Checks one string key value: not empty, and within the partition/sort key byte limit. */
export function checkKeyValue(text: string, part: KeyPart, field?: string): Result<void> {
  const max = part === 'partition' ? PARTITION_KEY_MAX_BYTES : SORT_KEY_MAX_BYTES;
  const extra = field === undefined ? {} : { field };
  if (text.length === 0) return err('validation', `the ${part} key must not be empty`, extra);
  const bytes = utf8ByteLength(text);
  if (bytes > max) {
    return err(
      'validation',
      `the ${part} key is ${fmt(bytes)} bytes in UTF-8; DynamoDB allows at most ${fmt(max)} (${fmt(bytes - max)} too many)`,
      extra,
    );
  }
  return ok(undefined);
}

/** Empty scope values: sizes are checked for the value alone here; builders check the key with its scope. */
const emptyScope = (rule: LockRule): string[] => Object.keys(rule.scope ?? {}).map(() => '');

/**
 * Checks that the lock key for `value` under `rule` fits DynamoDB's limits, with a message
 * naming the rule and how many bytes the value may have.
 */
export function checkLockKeyLimits(rule: LockRule, value: string): Result<void> {
  if (value.length === 0) return err('validation', `${rule.name}: the value must not be empty`, { field: 'value' });
  const key = formatLockKey(rule, value, undefined, emptyScope(rule));
  const bytes = utf8ByteLength(key.hash);
  if (bytes > PARTITION_KEY_MAX_BYTES) {
    const room = PARTITION_KEY_MAX_BYTES - (bytes - utf8ByteLength(value));
    return err(
      'validation',
      `${rule.name}: the lock key is ${fmt(bytes)} bytes in UTF-8; DynamoDB allows at most ${fmt(PARTITION_KEY_MAX_BYTES)} for a partition key, so the value may have at most ${fmt(Math.max(0, room))} bytes (it has ${fmt(utf8ByteLength(value))})`,
      { field: 'value' },
    );
  }
  if (key.range !== undefined) return checkKeyValue(key.range, 'sort', 'range');
  return ok(undefined);
}

/** The most UTF-8 bytes a value may have under `rule` (its canonical template's prefix and suffix take the rest). */
export function maxValueBytes(rule: LockRule): number {
  const probe = formatLockKey(rule, '', undefined, emptyScope(rule));
  return PARTITION_KEY_MAX_BYTES - utf8ByteLength(probe.hash);
}
