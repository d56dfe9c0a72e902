/** Lookup verdicts in words and colour. */
import type { LookupVerdict } from '../../../../shared/domain';
import { Badge, type BadgeTone } from '../../components/badge';

const TONE: Record<LookupVerdict, BadgeTone> = { free: 'ok', held: 'info', orphan: 'danger', unprotected: 'danger', duplicate: 'danger' };
const TEXT: Record<LookupVerdict, string> = {
  free: 'free — no lock, no holder',
  held: 'held — locked by its holder',
  orphan: 'orphan — locked, but nobody holds it',
  unprotected: 'unprotected — held, but no lock',
  duplicate: 'duplicate — held by several accounts',
};

/**
 * A verdict chip with its meaning. With `asOfAudit` the holders came from an audit, which cannot see
 * accounts written since: the chip says so and never shows the certain (green) tone.
 */
export function VerdictChip({ verdict, asOfAudit }: { verdict: LookupVerdict; asOfAudit?: string | undefined }) {
  const tone = asOfAudit !== undefined && TONE[verdict] !== 'danger' ? 'warn' : TONE[verdict];
  return (
    <span data-testid="lookup-verdict" data-verdict={verdict} data-confirmed={asOfAudit === undefined ? 'true' : 'false'}>
      <Badge tone={tone}>
        {asOfAudit === undefined ? TEXT[verdict] : `${TEXT[verdict]}, as of the audit of ${asOfAudit}; not confirmed by a scan`}
      </Badge>
    </span>
  );
}
