/** Normalization of protected values: both sides of every join go through this. */
import type { NormalizationStep } from '../model';

/** Applies the rule's normalization steps in order; an empty list returns the value unchanged. */
export function normalizeValue(value: string, steps: readonly NormalizationStep[]): string {
  let out = value;
  for (const step of steps) {
    switch (step) {
      case 'trim':
        out = out.trim();
        break;
      case 'lowercase':
        out = out.toLowerCase();
        break;
      case 'nfc':
        out = out.normalize('NFC');
        break;
    }
  }
  return out;
}
