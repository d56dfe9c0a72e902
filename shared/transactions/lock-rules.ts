/** Which rules' lock items a guarded write touches: a rule the last audit warned about holds such a write back. */
import type { Convention } from '../model';

/** The part of an operation that says which locks it writes (the bridge's requests and the CLI's operations alike). */
export type LockWritingOperation =
  | { readonly kind: 'claim' | 'release' | 'change-value'; readonly rule: string }
  | { readonly kind: 'signup'; readonly values: Readonly<Record<string, unknown>> }
  | { readonly kind: 'delete-account' };

/**
 * The rule names whose locks `operation` puts or deletes: one rule for a claim, a release or a change of
 * value; each rule given a value for a signup; every rule for a deleted account (its locks all go).
 */
export function lockRulesWritten(operation: LockWritingOperation, convention: Convention): readonly string[] {
  switch (operation.kind) {
    case 'claim':
    case 'release':
    case 'change-value':
      return [operation.rule];
    case 'signup':
      return Object.keys(operation.values);
    case 'delete-account':
      return convention.rules.map((rule) => rule.name);
  }
}
