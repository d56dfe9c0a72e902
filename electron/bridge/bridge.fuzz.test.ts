/**
 * Bridge fuzz: random and mutated arguments for every method. Whatever comes in, the dispatcher
 * answers with a Result; anything the schema rejects is a validation error that reaches no service
 * (so it can never write).
 */
import { describe, expect, it } from 'vitest';
import { METHOD_NAMES, type MethodName } from '../../shared/contract/api';
import { EXAMPLE_ARGS } from '../../shared/contract/examples';
import { methods } from '../../shared/contract/methods';
import { createDispatcher } from './pipeline';
import { createFakeHandlers } from './testing/fake-handlers';

/** Deterministic PRNG (mulberry32) so a failure can be replayed from its seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NASTY_STRINGS = [
  '',
  ' ',
  '__proto__',
  'constructor',
  'sandbox\u0000',
  '../../etc/passwd',
  '<img src=x onerror=alert(1)>',
  'x'.repeat(300_000),
  '\ud800',
  'profile:',
  'endpoint:',
];

function randomValue(random: () => number, depth = 0): unknown {
  const pick = Math.floor(random() * 14);
  switch (pick) {
    case 0:
      return null;
    case 1:
      return undefined;
    case 2:
      return random() < 0.5;
    case 3:
      return [NaN, Infinity, -Infinity, -0, 2 ** 53 + 1, 1e308, Math.floor(random() * 1000) - 500][Math.floor(random() * 7)];
    case 4:
      return NASTY_STRINGS[Math.floor(random() * NASTY_STRINGS.length)];
    case 5:
      return Math.random().toString(36).slice(2);
    case 6:
      return new Uint8Array([1, 2, 3]);
    case 7:
      return new Date(0);
    case 8:
      return new Map([['a', 1]]);
    case 9:
      return JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}');
    case 10:
    case 11:
      return depth > 2
        ? {}
        : Object.fromEntries(Array.from({ length: Math.floor(random() * 4) }, (_, i) => [`k${i}`, randomValue(random, depth + 1)]));
    default:
      return depth > 2 ? [] : Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, depth + 1));
  }
}

/** Mutates a valid example: drop, replace or add one field. */
function mutate(example: unknown, random: () => number): unknown {
  if (typeof example !== 'object' || example === null) return randomValue(random);
  const copy: Record<string, unknown> = { ...(example as Record<string, unknown>) };
  const keys = Object.keys(copy);
  const key = keys[Math.floor(random() * keys.length)];
  const choice = random();
  if (key !== undefined && choice < 0.35) delete copy[key];
  else if (key !== undefined && choice < 0.8) copy[key] = randomValue(random);
  else copy[['extra', '__proto__', 'constructor', 'toString'][Math.floor(random() * 4)] ?? 'extra'] = randomValue(random);
  return copy;
}

const ROUNDS = 150;

describe('bridge fuzz', () => {
  it.each(METHOD_NAMES)('%s: random and mutated arguments never crash, never reach a service when invalid', async (name: MethodName) => {
    const random = prng([...name].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7));
    for (let round = 0; round < ROUNDS; round += 1) {
      const { handlers, calls, writes } = createFakeHandlers();
      const dispatch = createDispatcher(handlers, { refused: () => undefined, failed: () => undefined });
      const args = round % 3 === 0 ? randomValue(random) : mutate(EXAMPLE_ARGS[name], random);
      const valid = methods[name].args.safeParse(args).success;
      const result = await dispatch(name, args, round % 2 === 0 ? 'ipc' : 'http', { trusted: true, label: 'fuzz' });
      expect(typeof result.ok).toBe('boolean');
      if (!valid) {
        expect(result).toMatchObject({ ok: false, error: { kind: 'validation' } });
        expect(calls).toEqual([]);
        expect(writes()).toBe(0);
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a foreign sender never reaches a service, whatever the method and arguments', async () => {
    const random = prng(99);
    for (const name of METHOD_NAMES) {
      const { handlers, calls, writes } = createFakeHandlers();
      const dispatch = createDispatcher(handlers, { refused: () => undefined, failed: () => undefined });
      const result = await dispatch(name, EXAMPLE_ARGS[name], 'ipc', { trusted: false, reason: `fuzz ${random()}` });
      expect(result.ok).toBe(false);
      expect(calls).toEqual([]);
      expect(writes()).toBe(0);
    }
  });
});
