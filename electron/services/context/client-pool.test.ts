import { describe, expect, it } from 'vitest';
import { createClientPool } from './client-pool';

const target = (region: string, endpoint = 'http://127.0.0.1:8000') => ({ label: 'local', endpoint, region });

describe('client pool', () => {
  it('reuses a connection client, replaces it (destroying the old) when the target changes, and closes all', () => {
    const pool = createClientPool({});
    const first = pool.clientFor('c1', target('us-east-1'));
    expect(pool.clientFor('c1', target('us-east-1'))).toBe(first);
    const other = pool.clientFor('c2', target('us-east-1'));
    expect(other).not.toBe(first);
    let destroyed = 0;
    const destroy = first.destroy.bind(first);
    first.destroy = () => {
      destroyed += 1;
      destroy();
    };
    const moved = pool.clientFor('c1', target('eu-west-1'));
    expect(moved).not.toBe(first);
    expect(destroyed).toBe(1);
    expect(pool.clientFor('c2', target('us-east-1'))).toBe(other);
    pool.close();
    expect(pool.clientFor('c1', target('eu-west-1'))).not.toBe(moved);
    pool.close();
  });
});
