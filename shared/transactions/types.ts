/**
 * Types of guarded transactions: the request a person makes (validated where it enters),
 * the resolved spec the pure builders take, the exact DynamoDB JSON they produce, the
 * preview shown before anything is sent, and the outcome after executing it.
 */
import type { ScopeValues } from '../conventions/scope';
import type { Convention, PlainKey, PlainValue } from '../model';
import type { z } from 'zod';
import type { operationSchema } from '../contract/tx-schema';
import type { OutcomeStatus } from '../domain';

// ---------------------------------------------------------------- DynamoDB JSON (what is sent)

/** A typed attribute value as DynamoDB JSON (`{"S": …}`); B is base64 text, as the AWS CLI expects. */
export type AttributeValueJson =
  { readonly S: string } | { readonly N: string } | { readonly B: string } | { readonly BOOL: boolean } | { readonly NULL: true };

/** An item or key as DynamoDB JSON. */
export type ItemJson = Readonly<Record<string, AttributeValueJson>>;

/** Fields every transactional action may carry for its condition. */
interface ConditionFields {
  readonly TableName: string;
  readonly ConditionExpression?: string;
  readonly ExpressionAttributeNames?: Readonly<Record<string, string>>;
  readonly ExpressionAttributeValues?: ItemJson;
  /** Always `ALL_OLD` in our previews, so a failed condition tells who holds the item. */
  readonly ReturnValuesOnConditionCheckFailure?: 'ALL_OLD' | 'NONE';
}

/** A Put action's body. */
export type PutJson = ConditionFields & { readonly Item: ItemJson };
/** A Delete action's body. */
export type DeleteJson = ConditionFields & { readonly Key: ItemJson };
/** An Update action's body. */
export type UpdateJson = ConditionFields & { readonly Key: ItemJson; readonly UpdateExpression: string };
/** A ConditionCheck action's body. */
export type ConditionCheckJson = ConditionFields & { readonly Key: ItemJson; readonly ConditionExpression: string };
/** Any action body. */
export type ActionBody = PutJson | DeleteJson | UpdateJson | ConditionCheckJson;
/** The four transactional operations. */
export type ActionOperation = 'Put' | 'Delete' | 'Update' | 'ConditionCheck';

/** One action of a TransactWriteItems request, as DynamoDB JSON. */
export type TransactItemJson =
  | { readonly Put: PutJson }
  | { readonly Delete: DeleteJson }
  | { readonly Update: UpdateJson }
  | { readonly ConditionCheck: ConditionCheckJson };

/** The exact TransactWriteItems input (DynamoDB JSON). */
export interface TransactWriteInputJson {
  readonly TransactItems: readonly TransactItemJson[];
  readonly ClientRequestToken: string;
}

// ---------------------------------------------------------------- requests (what a person asks for)

/**
 * Any transaction a person can ask for, inferred from the one schema (`operationSchema` in
 * shared/contract/tx-schema.ts, where each field is described). Validated where it enters: the bridge
 * and the CLI's flags; these are the shapes after validation.
 */
export type TransactionOperation = z.infer<typeof operationSchema>;

/** One kind of operation, read-only. */
type OperationOf<K extends TransactionOperation['kind']> = Readonly<Extract<TransactionOperation, { kind: K }>>;
/** Claim: write the lock for `value` and check that `account` holds it. */
export type ClaimOperation = OperationOf<'claim'>;
/** Release: delete the lock for `value`; `holder` is the last known holder, when one is known. */
export type ReleaseOperation = OperationOf<'release'>;
/** Signup: put the account with its protected values and one lock per value. */
export type SignupOperation = OperationOf<'signup'>;
/** Change value: new lock guarded, old lock deleted, account updated only if it still holds `from`. */
export type ChangeValueOperation = OperationOf<'change-value'>;
/** Delete account: the account and all its locks, conditioned on the values it holds. */
export type DeleteAccountOperation = OperationOf<'delete-account'>;

/** The kinds of transaction. */
export type OperationKind = TransactionOperation['kind'];

/** A transaction request for the service: table, its convention and the operation. */
export interface TransactionRequest {
  readonly table: string;
  readonly convention: Convention;
  readonly operation: TransactionOperation;
}

/** Executing a preview: its id and the value typed back. */
export interface ExecuteRequest {
  readonly previewId: string;
  readonly confirmation: string;
}

/** Decoding a pasted cancellation: the error text or CancellationReasons JSON, optionally the request JSON. */
export interface DecodeRequest {
  readonly error: string;
  readonly request?: string;
  /** The table's convention, so lock keys in the request are read as rule + value. */
  readonly convention?: Convention;
}

// ---------------------------------------------------------------- resolved specs (what the pure builders take)

/** What the service read about an attribute just before previewing: absent, or a string as stored. */
export type SeenValue = { readonly state: 'absent' } | { readonly state: 'value'; readonly value: string };

/** Claim with the account's stored value resolved. */
export interface ClaimSpec {
  readonly kind: 'claim';
  readonly rule: string;
  readonly value: string;
  readonly account: PlainKey;
  /** The account's attribute exactly as stored (may differ from the normalized lock value). */
  readonly stored: string;
  /** For a scoped rule: the scope the account holds the value in (read with it). */
  readonly scope?: ScopeValues;
}

/** Release with what is known about the lock's owner and the last holder. */
export interface ReleaseSpec {
  readonly kind: 'release';
  readonly rule: string;
  readonly value: string;
  /** Only with an owner attribute: the owner named on the lock when previewed (absent = the lock names nobody). */
  readonly lockOwner?: { readonly state: 'absent' } | { readonly state: 'value'; readonly value: PlainValue };
  /** The last known holder and, when read fresh, what its attribute (and, for a scoped rule, its scope) held then. */
  readonly holder?: { readonly key: PlainKey; readonly seen?: SeenValue; readonly seenScope?: ScopeValues };
  /** The lock's exact key when it is not the canonical one; it must read as a lock of this rule and value. */
  readonly lockKey?: PlainKey;
  /** For a scoped rule: the scope of the lock (else read from `lockKey`). */
  readonly scope?: ScopeValues;
}

/** Signup with values as they will be stored. */
export interface SignupSpec {
  readonly kind: 'signup';
  readonly account: PlainKey;
  readonly values: Readonly<Record<string, string>>;
  readonly attributes?: Readonly<Record<string, string>>;
}

/** Change value with the current stored value resolved. */
export interface ChangeValueSpec {
  readonly kind: 'change-value';
  readonly account: PlainKey;
  readonly rule: string;
  readonly from: string;
  readonly to: string;
  /** For a scoped rule: the account's scope (both locks live in it). */
  readonly scope?: ScopeValues;
}

/** Delete account with every protected value it holds now (rule name → stored value). */
export interface DeleteAccountSpec {
  readonly kind: 'delete-account';
  readonly account: PlainKey;
  readonly values: Readonly<Record<string, string>>;
  /** Rule name → the account's scope, for its scoped rules. */
  readonly scopes?: Readonly<Record<string, ScopeValues>>;
}

/** Any resolved transaction spec. */
export type TransactionSpec = ClaimSpec | ReleaseSpec | SignupSpec | ChangeValueSpec | DeleteAccountSpec;

// ---------------------------------------------------------------- built transaction, preview, outcome

/** What one action does, so a CancellationReason at its position can be explained. */
export type ActionRole =
  'put-lock' | 'delete-lock' | 'check-lock' | 'check-account' | 'check-holder' | 'put-account' | 'update-account' | 'delete-account';

/** One action of a built transaction: its role, the item it touches and a plain-language line. */
export interface ActionMeta {
  readonly index: number;
  readonly role: ActionRole;
  readonly key: PlainKey;
  /** The key as people read it: `UNIQ#HANDLE#ada / LOCK`. */
  readonly keyText: string;
  readonly rule?: string;
  /** The attribute the rule protects (e.g. `username`). */
  readonly attribute?: string;
  /** The normalized value the action is about. */
  readonly value?: string;
  /** One line: "Put UNIQ#HANDLE#ada / LOCK only if no item has this key". */
  readonly explanation: string;
  /** Said when the condition fails (before reading the returned item). */
  readonly failure: string;
  /**
   * False for a pasted lock Put whose condition is not the absence of the lock's key: its failure
   * does not mean the value is held (the builders' lock Puts always guard absence).
   */
  readonly guardsAbsence?: false;
}

/** What the transaction guards against and, honestly, what it cannot. */
export interface Guards {
  readonly guarded: readonly string[];
  readonly notGuarded: readonly string[];
}

/** A built transaction: items (without token), action metadata, guards, the value to type back and a summary. */
export interface BuiltTransaction {
  readonly kind: OperationKind;
  readonly table: string;
  readonly items: readonly TransactItemJson[];
  readonly actions: readonly ActionMeta[];
  readonly guards: Guards;
  /** What the person types back to confirm (the value, or the account's hash key for account-wide templates). */
  readonly confirm: string;
  readonly summary: string;
}

/** The connection a preview was made for (never credentials). */
export interface PreviewConnection {
  readonly label: string;
  readonly region: string;
  readonly endpoint?: string;
  readonly profile?: string;
}

/** Copy-as forms of the exact request. */
export interface CopyAs {
  readonly awsCli: string;
  readonly sdkV3: string;
}

/** A preview: the exact request, explained, kept by main under `id` until `expiresAt`. */
export interface Preview {
  readonly id: string;
  readonly createdAt: string;
  readonly expiresAt: string;
  readonly kind: OperationKind;
  readonly table: string;
  readonly connection: PreviewConnection;
  readonly summary: string;
  readonly input: TransactWriteInputJson;
  readonly actions: readonly ActionMeta[];
  readonly guards: Guards;
  readonly confirm: string;
  readonly copyAs: CopyAs;
}

/** One CancellationReason mapped to its action, with a field-level message. */
export interface ReasonExplained {
  readonly index: number;
  readonly code: string;
  readonly message: string;
  readonly action?: { readonly role?: ActionRole; readonly keyText: string; readonly operation: ActionOperation };
  /** The item as it was when the condition failed (ALL_OLD), when returned. */
  readonly item?: ItemJson;
  /** Who holds the value, when it could be told. */
  readonly holder?: string;
}

/** The result of executing a preview. */
export type Outcome =
  | { readonly status: 'succeeded'; readonly token: string; readonly attempts: number; readonly message: string }
  | {
      readonly status: 'cancelled';
      readonly token: string;
      readonly attempts: number;
      readonly message: string;
      readonly reasons: readonly ReasonExplained[];
    }
  | { readonly status: 'refused'; readonly message: string; readonly holders: readonly PlainKey[] };

/** The service's statuses are the contract's, exactly (a compile error otherwise). */
const _sameStatuses: [Outcome['status'], OutcomeStatus] = [] as unknown as [OutcomeStatus, Outcome['status']];
void _sameStatuses;

/** A decoded cancellation: every reason, which failed, and a summary. */
export interface Decoded {
  readonly source: 'message' | 'json';
  readonly reasons: readonly ReasonExplained[];
  readonly failed: readonly ReasonExplained[];
  readonly summary: string;
}
