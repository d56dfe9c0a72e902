/** Badges that describe a connection: its kind, its write mode and its state. */
import type { ConnectionView } from '../../../../shared/contract';
import { Badge, type BadgeTone } from '../../components/badge';

const STATE_TONE: Record<ConnectionView['state'], BadgeTone> = {
  ok: 'ok',
  error: 'danger',
  stopped: 'neutral',
  starting: 'info',
  unknown: 'neutral',
};

/** Kind (sandbox, local, or the AWS profile's credential kind). */
export function KindBadge({ connection }: { connection: ConnectionView }) {
  if (connection.kind === 'sandbox') return null; // its label already says "sandbox"

  if (connection.kind === 'endpoint') return <Badge tone="info">local</Badge>;
  return (
    <Badge tone="neutral" title="How this profile gets credentials">
      {connection.profileKind ?? 'profile'}
    </Badge>
  );
}

/** Read-only or writable; shown everywhere the connection is. */
export function ModeBadge({ connection }: { connection: ConnectionView }) {
  return connection.writable ? (
    <Badge tone="warn" title="Transactions can be executed on this connection">
      writable
    </Badge>
  ) : (
    <Badge tone="ok" title="Nothing can be written through this connection">
      read-only
    </Badge>
  );
}

/** Last observed state. */
export function StateBadge({ connection }: { connection: ConnectionView }) {
  return <Badge tone={STATE_TONE[connection.state]}>{connection.state}</Badge>;
}
