/** How a lookup found the holders, in words for the result card. */
import type { LookupView } from '../../../../shared/contract';

/** "the index byEmail", "a filtered scan (no index on the attribute)", or both when the rules differed. */
export function holderSearchText(view: Pick<LookupView, 'method' | 'indexName'>): string {
  const index = `the index ${view.indexName ?? ''}`.trimEnd();
  switch (view.method) {
    case 'index':
      return index;
    case 'scan':
      return 'a filtered scan (no index on the attribute)';
    case 'mixed':
      return `${index} for some rules and a filtered scan for the rules without an index`;
  }
}
