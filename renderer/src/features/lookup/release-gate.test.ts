import { describe, expect, it } from 'vitest';
import type { LookupVerdict } from '../../../../shared/domain';
import { releaseGate } from './release-gate';

const AUDIT = '2026-12-01T17:00:00.000Z';

describe('releaseGate', () => {
  it('offers the release of an orphan found by a complete scan or index', () => {
    expect(releaseGate({ verdict: 'orphan' }, true)).toEqual({ offer: 'ready' });
    expect(releaseGate({ verdict: 'orphan' }, undefined)).toEqual({ offer: 'ready' });
  });

  it('holds back an orphan answered from an audit, naming the audit and the scan', () => {
    const gate = releaseGate({ verdict: 'orphan', asOfAudit: AUDIT }, true);
    expect(gate.offer).toBe('unconfirmed');
    expect(gate.offer === 'unconfirmed' && gate.reason).toContain(`as of the audit of ${AUDIT}`);
    expect(gate.offer === 'unconfirmed' && gate.reason).toContain('Confirm with a scan');
  });

  it('holds back an orphan from a holder search that did not finish', () => {
    const gate = releaseGate({ verdict: 'orphan' }, false);
    expect(gate.offer).toBe('unconfirmed');
    expect(gate.offer === 'unconfirmed' && gate.reason).toContain('did not finish');
  });

  it.each<LookupVerdict>(['free', 'held', 'unprotected', 'duplicate'])('offers no release for %s, confirmed or not', (verdict) => {
    expect(releaseGate({ verdict }, true)).toEqual({ offer: 'none' });
    expect(releaseGate({ verdict, asOfAudit: AUDIT }, false)).toEqual({ offer: 'none' });
  });
});
