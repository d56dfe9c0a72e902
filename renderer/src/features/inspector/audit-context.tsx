/** Provides the current audit run to the inspector and the lock form (both read and patch its rows). */
import { createContext, useContext, type ReactNode } from 'react';
import type { AuditState } from './audit-state';
import { useAudit } from './use-audit';

const AuditContext = createContext<AuditState | null>(null);

/** Runs audits of the selected table and shares the run below. */
export function AuditProvider(props: {
  connectionId: string | undefined;
  table: string | undefined;
  epoch: number;
  stale: boolean;
  children: ReactNode;
}) {
  const { connectionId, table, epoch, stale, children } = props;
  const audit = useAudit(connectionId, table, { epoch, stale });
  return <AuditContext.Provider value={audit}>{children}</AuditContext.Provider>;
}

/** The current audit run; throws outside the provider (a programming error). */
export function useAuditRun(): AuditState {
  const audit = useContext(AuditContext);
  if (!audit) throw new Error('useAuditRun outside AuditProvider');
  return audit;
}
