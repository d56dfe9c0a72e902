import { describe, expect, expectTypeOf, it } from 'vitest';
import { METHOD_NAMES, STREAM_NAMES, isMethodName, isStreamName, matchesFilter, type MethodResult, type StreamEvent } from './api';
import { methods } from './methods';
import { streams } from './streams';
import { EXAMPLE_ARGS } from './examples';
import { formatStartupHash, parseStartupHash } from './startup';
import type { TablesPage, AuditEvent } from './views';

describe('contract', () => {
  it('names every method and stream `<area>.<verb>`', () => {
    for (const name of [...METHOD_NAMES, ...STREAM_NAMES]) expect(name).toMatch(/^[a-z]+\.[a-zA-Z]+$/);
  });

  it.each(METHOD_NAMES)('%s accepts its example and rejects an extra field', (name) => {
    const schema = methods[name].args;
    expect(schema.safeParse(EXAMPLE_ARGS[name]).success).toBe(true);
    expect(schema.safeParse({ ...EXAMPLE_ARGS[name], smuggled: 1 }).success).toBe(false);
    expect(schema.safeParse(null).success).toBe(false);
  });

  it.each(STREAM_NAMES)('%s filter is strict', (name) => {
    expect(streams[name].filter.safeParse({ smuggled: 1 }).success).toBe(false);
  });

  it('bounds strings', () => {
    const long = 'a'.repeat(5000);
    expect(methods['lookup.run'].args.safeParse({ connectionId: 'sandbox', table: 'accounts', value: long }).success).toBe(false);
    expect(methods['tables.describe'].args.safeParse({ connectionId: 'sandbox', table: long }).success).toBe(false);
    expect(methods['connections.select'].args.safeParse({ id: `profile:${long}` }).success).toBe(false);
  });

  it('accepts only http(s) endpoints without credentials and https external links', () => {
    const add = methods['connections.addEndpoint'].args;
    expect(add.safeParse({ endpoint: 'http://localhost:8000' }).success).toBe(true);
    expect(add.safeParse({ endpoint: 'file:///etc/passwd' }).success).toBe(false);
    expect(add.safeParse({ endpoint: 'http://key:secret@localhost:8000' }).success).toBe(false);
    const open = methods['app.openExternal'].args;
    expect(open.safeParse({ url: 'http://example.com' }).success).toBe(false);
    expect(open.safeParse({ url: 'javascript:alert(1)' }).success).toBe(false);
  });

  it('treats prototype names as unknown', () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      expect(isMethodName(name)).toBe(false);
      expect(isStreamName(name)).toBe(false);
    }
  });

  it('matches stream events by filter fields', () => {
    expect(matchesFilter({ runId: 'a' }, { type: 'done', runId: 'a' })).toBe(true);
    expect(matchesFilter({ runId: 'a' }, { type: 'done', runId: 'b' })).toBe(false);
    expect(matchesFilter({}, { state: 'running' })).toBe(true);
  });

  it('derives result and event types from the contract', () => {
    expectTypeOf<MethodResult<'tables.list'>>().toEqualTypeOf<TablesPage>();
    expectTypeOf<StreamEvent<'audit.events'>>().toEqualTypeOf<AuditEvent>();
  });

  it('round-trips the startup hash', () => {
    const hash = formatStartupHash({ token: 't0k', connection: 'sandbox', table: 'accounts' });
    expect(parseStartupHash(hash)).toEqual({ token: 't0k', connection: 'sandbox', table: 'accounts' });
    expect(parseStartupHash('#table=' + 'x'.repeat(600))).toEqual({});
  });
});
