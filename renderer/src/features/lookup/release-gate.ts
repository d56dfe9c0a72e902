/** Whether the lookup card may offer "Release the orphan lock…", and if not, why. */
import type { LookupRuleView } from '../../../../shared/contract';

/** `none`: no orphan, nothing to release; `ready`: offer it; `unconfirmed`: show it disabled with the reason. */
export type ReleaseGate =
  { readonly offer: 'none' } | { readonly offer: 'ready' } | { readonly offer: 'unconfirmed'; readonly reason: string };

/**
 * The release action for one rule's verdict. An orphan verdict answered from an audit's index (or by a
 * holder search that did not finish) is not proof that nobody holds the value: an account written since
 * the audit by a client that takes no locks is not seen, and releasing would leave it unprotected. The
 * single release path reads only the lock and its named owner, so the card asks for a scan first.
 */
export function releaseGate(rule: Pick<LookupRuleView, 'verdict' | 'asOfAudit'>, complete: boolean | undefined): ReleaseGate {
  if (rule.verdict !== 'orphan') return { offer: 'none' };
  if (complete === false) {
    return {
      offer: 'unconfirmed',
      reason:
        'The search for holders did not finish, so an account may still hold this value. Look it up again; release once a complete search says orphan.',
    };
  }
  if (rule.asOfAudit !== undefined) {
    return {
      offer: 'unconfirmed',
      reason: `Orphan only as of the audit of ${rule.asOfAudit}: an account written since (by a client that takes no lock) is not seen, and releasing would leave it unprotected. Confirm with a scan first.`,
    };
  }
  return { offer: 'ready' };
}
