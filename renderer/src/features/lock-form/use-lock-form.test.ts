import { describe, expect, it } from 'vitest';
import { errorTitle } from './use-lock-form';

describe('errorTitle', () => {
  it('a send that may have been applied is never headlined "not accepted"', () => {
    expect(errorTitle({ step: 'preview', error: { kind: 'unreachable', message: 'the outcome is unknown — …', outcome: 'unknown' } })).toBe(
      'Outcome unknown — the request may have been applied',
    );
  });
  it('a refusal or a failure that did nothing is "not accepted"; after the outcome, the re-check failed', () => {
    expect(errorTitle({ step: 'preview', error: { kind: 'validation', message: 'the confirmation does not match' } })).toBe(
      'The request was not accepted',
    );
    expect(errorTitle({ step: 'outcome', error: { kind: 'unreachable', message: 'x' } })).toBe('The re-check failed');
  });
});
