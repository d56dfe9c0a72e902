import { describe, expect, it } from 'vitest';
import type { ConnectionView, TxPreviewView } from '../../../../shared/contract';
import { executeBlocker } from './preview-panel';

const preview: TxPreviewView = {
  previewId: 'p1',
  clientRequestToken: 't1',
  expiresAt: '2026-01-01T00:10:00Z',
  input: {},
  actions: [],
  notGuarded: [],
  copyAs: { awsCli: '', sdkV3: '' },
  confirmText: 'ada',
  executable: true,
};
const writable: ConnectionView = {
  id: 'sandbox',
  label: 'Sandbox',
  kind: 'sandbox',
  region: 'us-east-1',
  endpoint: 'http://127.0.0.1:8000',
  endpointSource: 'connection',
  writable: true,
  state: 'ok',
  envOverrides: [],
};

describe('executeBlocker', () => {
  it('blocks until the value is typed back exactly', () => {
    expect(executeBlocker(preview, writable, '')).toMatch(/Type ada/);
    expect(executeBlocker(preview, writable, 'Ada')).toMatch(/Type ada/);
    expect(executeBlocker(preview, writable, 'ada')).toBeUndefined();
  });

  it('blocks on a read-only connection, saying why, whatever is typed', () => {
    expect(executeBlocker({ ...preview, executable: false, readOnlyReason: 'prod is read-only' }, writable, 'ada')).toBe(
      'prod is read-only',
    );
    expect(executeBlocker(preview, { ...writable, writable: false }, 'ada')).toMatch(/read-only/);
  });
});
