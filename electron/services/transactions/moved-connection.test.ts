import { describe, expect, it } from 'vitest';
import { movedConnection } from './service';

describe('movedConnection', () => {
  const then = { label: 'sandbox', region: 'us-east-1', endpoint: 'http://127.0.0.1:8000' };

  it('lets a preview be sent where it was made, whatever the label says now', () => {
    expect(movedConnection(then, { ...then, label: 'renamed' })).toBeUndefined();
    expect(movedConnection({ label: 'aws', region: 'eu-west-1' }, { label: 'aws', region: 'eu-west-1' })).toBeUndefined();
  });

  it('refuses another region or endpoint (a changed region, a restarted sandbox on a new port), naming both', () => {
    expect(movedConnection(then, { ...then, region: 'eu-west-1' })).toBe(
      'it was made for us-east-1 at http://127.0.0.1:8000, and sandbox now points at eu-west-1 at http://127.0.0.1:8000',
    );
    expect(movedConnection(then, { ...then, endpoint: 'http://127.0.0.1:9000' })).toContain(
      'now points at us-east-1 at http://127.0.0.1:9000',
    );
    expect(movedConnection(then, { label: 'sandbox', region: 'us-east-1' })).toContain('now points at us-east-1');
  });
});
