/**
 * Result types of the guarded-write methods: a previewed transaction, its outcome, a decoded
 * cancellation and the activity log, as the renderer reads them.
 */
import type { PlainKey } from '../model';
import type { ActivityStatus, JsonValue } from '../domain';

/** One action of a previewed transaction, explained. */
export interface TxActionView {
  readonly index: number;
  readonly type: 'Put' | 'Delete' | 'Update' | 'ConditionCheck';
  readonly key: PlainKey;
  /** One plain-language line, e.g. "Put UNIQ#HANDLE#ada only if no item has this key". */
  readonly explanation: string;
}

/** A previewed transaction, kept by main under `previewId` until `expiresAt`. */
export interface TxPreviewView {
  readonly previewId: string;
  readonly clientRequestToken: string;
  /** ISO time. */
  readonly expiresAt: string;
  /** The exact `TransactWriteItems` input, DynamoDB JSON. */
  readonly input: JsonValue;
  readonly actions: readonly TxActionView[];
  /** What DynamoDB cannot guard and main checks itself before executing. */
  readonly notGuarded: readonly string[];
  readonly copyAs: { readonly awsCli: string; readonly sdkV3: string };
  /** What the user must type back to execute (the value). */
  readonly confirmText: string;
  /** False on a read-only connection; `readOnlyReason` then says why. */
  readonly executable: boolean;
  readonly readOnlyReason?: string;
  /** One line: what this transaction does. */
  readonly summary?: string;
  /** What the conditions do guard, in words. */
  readonly guarded?: readonly string[];
}

/** Why one action of a cancelled transaction failed. */
export interface TxReasonView {
  readonly index: number;
  readonly code: string;
  readonly message: string;
  readonly action?: TxActionView;
  /** The item as it was when the condition failed (DynamoDB JSON, returned with ALL_OLD). */
  readonly item?: JsonValue;
}

/** The outcome of an executed (or refused) transaction. */
export type TxOutcomeView =
  | {
      readonly status: 'succeeded';
      readonly previewId: string;
      /** True when consistent re-reads found every written item as written. */
      readonly verified: boolean;
      readonly message?: string;
      /** When not verified: what the re-reads found different (or could not check). */
      readonly differences?: readonly string[];
    }
  | { readonly status: 'cancelled'; readonly previewId: string; readonly reasons: readonly TxReasonView[]; readonly message?: string }
  /** Nothing was sent: the accounts in `holders` hold the value right now (the preview stays, to execute once they do not). */
  | { readonly status: 'refused'; readonly previewId: string; readonly holders: readonly PlainKey[]; readonly message: string };

/** A decoded cancellation. */
export interface DecodeView {
  readonly reasons: readonly TxReasonView[];
  readonly summary: string;
}

/** One line of the local activity log of executed transactions. */
export interface ActivityEntry {
  readonly time: string;
  readonly connection: string;
  readonly region: string;
  readonly endpoint: string | null;
  readonly table: string;
  readonly previewId: string;
  readonly clientRequestToken: string;
  readonly request: JsonValue;
  /** The outcome's status, checked when the line was read. */
  readonly status: ActivityStatus;
  /** The whole recorded outcome (message, reasons…), shown as it was logged. */
  readonly outcome: JsonValue;
  /** claim, release, signup… */
  readonly kind?: string;
  readonly summary?: string;
}

/** Newest-first page of the activity log. */
export interface ActivityPage {
  readonly entries: readonly ActivityEntry[];
}
