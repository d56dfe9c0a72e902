/** Lookup verdicts in words and colour. */
import type { LookupVerdict } from '../../../../shared/contract';
import { Badge, type BadgeTone } from '../../components/badge';

const TONE: Record<LookupVerdict, BadgeTone> = { free: 'ok', held: 'info', orphan: 'danger', unprotected: 'danger', duplicate: 'danger' };
const TEXT: Record<LookupVerdict, string> = {
  free: 'free — no lock, no holder',
  held: 'held — locked by its holder',
  orphan: 'orphan — locked, but nobody holds it',
  unprotected: 'unprotected — held, but no lock',
  duplicate: 'duplicate — held by several accounts',
};

/** A verdict chip with its meaning. */
export function VerdictChip({ verdict }: { verdict: LookupVerdict }) {
  return (
    <span data-testid="lookup-verdict" data-verdict={verdict}>
      <Badge tone={TONE[verdict]}>{TEXT[verdict]}</Badge>
    </span>
  );
}
