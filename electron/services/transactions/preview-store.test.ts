import { describe, expect, it } from 'vitest';
import type { StoredPreview } from './preview-store';
import { PREVIEW_TTL_MS, PreviewStore } from './preview-store';

const entry = (id: string, expiresAtMs: number): StoredPreview => ({
  id,
  owner: 'c1',
  where: { label: 'local', region: 'us-east-1' },
  confirm: 'claim',
  confirmFor: 'claim',
  preview: { id } as StoredPreview['preview'],
  built: {} as StoredPreview['built'],
  convention: {} as StoredPreview['convention'],
  rules: new Map(),
  spec: {} as StoredPreview['spec'],
  expiresAtMs,
});

describe('PreviewStore', () => {
  it('keeps a preview for 10 minutes, then reports it expired', () => {
    let now = 0;
    const store = new PreviewStore(() => now);
    store.put(entry('a', now + PREVIEW_TTL_MS));
    now = PREVIEW_TTL_MS - 1;
    expect(store.get('a').found).toBe(true);
    now = PREVIEW_TTL_MS;
    expect(store.get('a')).toEqual({ found: false, reason: 'expired' });
    expect(store.get('nope')).toEqual({ found: false, reason: 'unknown' });
  });

  it('drops expired previews when new ones arrive', () => {
    let now = 0;
    const store = new PreviewStore(() => now);
    store.put(entry('a', 10));
    now = 11;
    store.put(entry('b', 100));
    expect(store.size()).toBe(1);
  });

  it('hands out distinct URL-safe ids', () => {
    const store = new PreviewStore();
    const ids = new Set(Array.from({ length: 100 }, () => store.newId()));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(/^pv_[a-f0-9]{32}$/);
  });
});

describe('single use (#16 finding 6)', () => {
  it('a claimed preview cannot be claimed again until released; a sent one stays used', () => {
    const store = new PreviewStore(() => 0);
    store.put(entry('pv_a', 1000));
    expect(store.claim('pv_a').found).toBe(true);
    expect(store.claim('pv_a')).toEqual({ found: false, reason: 'executing' });
    store.release('pv_a', false);
    expect(store.claim('pv_a').found).toBe(true);
    store.release('pv_a', true);
    expect(store.claim('pv_a')).toEqual({ found: false, reason: 'executed' });
    expect(store.claim('pv_unknown')).toEqual({ found: false, reason: 'unknown' });
  });
});
