/** Reads an account key typed as JSON (`{"PK":"ACCT#1","SK":"PROFILE"}`) into a plain key, or undefined. */
import type { PlainKey } from '../../../../shared/model';

/** Accepts an object of one or two string/number values; anything else is undefined. */
export function parseKeyInput(text: string): PlainKey | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const entries = Object.entries(parsed);
  if (entries.length < 1 || entries.length > 2) return undefined;
  if (!entries.every(([, v]) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)))) return undefined;
  return Object.fromEntries(entries) as PlainKey;
}
