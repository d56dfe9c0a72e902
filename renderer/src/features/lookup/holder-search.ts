/** How a lookup found the holders, in words for the result card. */
import type { LookupView } from '../../../../shared/contract';

/** "the index byEmail", "the audit of <time>…", "a filtered scan (no index on the attribute)", or both when the rules differed. */
export function holderSearchText(view: Pick<LookupView, 'method' | 'indexName' | 'usedAudit'>): string {
  const index = `the index ${view.indexName ?? ''}`.trimEnd();
  const audit = `the audit of ${view.usedAudit ?? '?'} (holders re-read by key)`;
  switch (view.method) {
    case 'index':
      return index;
    case 'audit':
      return audit;
    case 'scan':
      return 'a filtered scan (no index on the attribute)';
    case 'mixed':
      return `${view.indexName ? index : audit} for some rules and ${view.indexName && view.usedAudit ? audit : 'a filtered scan'} for the rules without an index`;
  }
}
