/** Chips for lock statuses and problem kinds: colour plus words, never colour alone. */
import type { LockStatus } from '../../../../shared/audit/types';
import type { ProblemKind } from '../../../../shared/model';
import { Badge, type BadgeTone } from '../../components/badge';

const LOCK_TONE: Record<LockStatus, BadgeTone> = { ok: 'ok', missing: 'danger', duplicate: 'danger', 'owner-mismatch': 'warn' };
const LOCK_LABEL: Record<LockStatus, string> = {
  ok: 'locked',
  missing: 'no lock',
  duplicate: 'duplicate',
  'owner-mismatch': 'owner mismatch',
};

/** The status of one expected lock. */
export function LockStatusChip({ status }: { status: LockStatus }) {
  return <Badge tone={LOCK_TONE[status]}>{LOCK_LABEL[status]}</Badge>;
}

/**
 * An account whose lock has not been read yet while the scan runs: neither healthy nor a problem
 * until it settles. Muted, dashed, and said in words (a screen reader hears why).
 */
export function CheckingChip() {
  return (
    <Badge tone="neutral" title="a lock of this account has not been read yet: it settles as the scan goes on">
      <span className="badge-checking">checking</span>
      <span className="visually-hidden">: its lock has not been read yet</span>
    </Badge>
  );
}

/** Human names of the problem kinds (the kind's own name stays visible in the data attribute and exports). */
export const PROBLEM_LABEL: Record<ProblemKind, string> = {
  'orphan-lock': 'Orphan lock',
  'missing-lock': 'Missing lock',
  'duplicate-value': 'Duplicate value',
  'owner-mismatch': 'Owner mismatch',
  'malformed-lock': 'Malformed lock',
};

/** One problem kind. */
export function ProblemChip({ kind }: { kind: ProblemKind }) {
  return (
    <Badge tone={kind === 'owner-mismatch' ? 'warn' : 'danger'} title={kind}>
      {PROBLEM_LABEL[kind]}
    </Badge>
  );
}
