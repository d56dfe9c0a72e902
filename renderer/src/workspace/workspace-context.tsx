/**
 * What the whole window shares: the selected connection and table, the open tab, and the two
 * cross-feature dialogs (lookup and the lock form). Kept small on purpose: features own the rest.
 * It lives below app/ and features/ so that features read it without importing app/ (lint-enforced).
 */
import { createContext, useContext } from 'react';
import type { ConnectionView } from '../../../shared/contract';
import type { PlainKey } from '../../../shared/model';

/** The tabs of the main area. */
export type TabId = 'inspector' | 'table' | 'convention' | 'lookup' | 'decode' | 'activity';

/** What the lock form opens with (everything optional but the kind: the form asks for the rest). */
export interface LockFormSeed {
  /** claim/release one lock, or a lifecycle fix of one account: change a protected value, delete it with its locks. */
  readonly kind: 'claim' | 'release' | 'change-value' | 'delete-account';
  /** Change value: the value the account stores now. */
  readonly from?: string;
  readonly rule?: string;
  readonly value?: string;
  /** Claim: the account that holds the value. Release: the last known holder, if any. */
  readonly account?: PlainKey;
  /** Accounts the claim form offers (the group's holders). */
  readonly candidates?: readonly PlainKey[];
  /** Release: the exact key of the lock row (legacy or scoped forms), when the seed came from one. */
  readonly lock?: PlainKey;
  /** A scoped rule's scope (account attribute → value). */
  readonly scope?: Readonly<Record<string, string>>;
  /** Release: the lock was judged an orphan by an audit of the live table or of an export (it may be old), not by a fresh look. */
  readonly orphanPer?: 'audit' | 'export';
}

/** The shared state and the actions that change it. */
export interface Workspace {
  readonly connection: ConnectionView | undefined;
  readonly table: string | undefined;
  readonly tab: TabId;
  /**
   * The last value handed to Lookup; `seq` changes on every request, so the same value can be looked up again.
   * `handed` is false when Lookup was only opened (Ctrl/⌘+K): the input is focused, what is typed in it stays.
   */
  readonly lookupRequest: { readonly value: string; readonly seq: number; readonly handed: boolean };
  readonly lockForm: LockFormSeed | undefined;
  readonly setTab: (tab: TabId) => void;
  readonly selectTable: (table: string | undefined) => void;
  /** Switches to the Lookup tab, optionally with a value to look up at once. */
  readonly openLookup: (value?: string) => void;
  readonly openLockForm: (seed: LockFormSeed) => void;
  readonly closeLockForm: () => void;
}

const WorkspaceContext = createContext<Workspace | null>(null);

/** Provides the workspace to the tree. */
export const WorkspaceProvider = WorkspaceContext.Provider;

/** The workspace; throws outside the provider (a programming error). */
export function useWorkspace(): Workspace {
  const workspace = useContext(WorkspaceContext);
  if (!workspace) throw new Error('useWorkspace outside WorkspaceProvider');
  return workspace;
}
