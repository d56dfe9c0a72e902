import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { TxOutcomeView } from '../../../../shared/contract';
import { OutcomePanel } from './outcome-panel';

const render = (outcome: TxOutcomeView): string => renderToStaticMarkup(<OutcomePanel outcome={outcome} recheck={undefined} />);

describe('OutcomePanel', () => {
  it('shows each status of the one outcome set as itself', () => {
    expect(render({ status: 'succeeded', previewId: 'p1', verified: true })).toContain('data-status="succeeded"');
    expect(
      render({ status: 'cancelled', previewId: 'p1', reasons: [{ index: 0, code: 'ConditionalCheckFailed', message: 'taken' }] }),
    ).toContain('data-status="cancelled"');
    const refused = render({
      status: 'refused',
      previewId: 'p1',
      holders: [{ PK: 'ACCT#b', SK: 'PROFILE' }],
      message: 'refused: ACCT#b holds `ada` right now. Nothing was sent.',
    });
    expect(refused).toContain('data-status="refused"');
    expect(refused).toContain('Locksmith refused before sending');
    expect(refused).toContain('ACCT#b holds `ada` right now');
  });
});

describe('OutcomePanel after an incomplete re-check', () => {
  it('says the re-check did not finish instead of showing its verdict', () => {
    const html = renderToStaticMarkup(
      <OutcomePanel
        outcome={{ status: 'succeeded', previewId: 'p1', verified: true }}
        recheck={{
          value: 'ada',
          method: 'scan',
          complete: false,
          reason: 'throttled',
          rules: [{ rule: 'HANDLE', normalized: 'ada', verdict: 'held', holders: [] }],
        }}
      />,
    );
    expect(html).toContain('data-testid="tx-recheck-incomplete"');
    expect(html).toContain('The re-check did not finish (throttled)');
    expect(html).not.toContain('data-testid="tx-recheck"');
  });
});
