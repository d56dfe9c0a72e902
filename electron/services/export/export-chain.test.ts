import { describe, expect, it } from 'vitest';
import { checkExportChain } from './export-chain';
import type { OpenedExport } from './read-export';

const TABLE = 'arn:aws:dynamodb:us-east-1:000000000000:table/users';

function full(exportTime = '2026-01-01T00:00:00.000Z', tableArn = TABLE): OpenedExport {
  return {
    dir: 'full',
    type: 'FULL_EXPORT',
    files: [],
    summary: { exportArn: `${tableArn}/export/f`, tableArn, exportTime } as OpenedExport['summary'],
  };
}

function inc(dir: string, from: string | undefined, to: string, tableArn: string | null = TABLE): OpenedExport {
  const summary = {
    exportArn: `${tableArn ?? 'arn:aws:dynamodb:us-east-1:000000000000:table/orders'}/export/${dir}`,
    ...(tableArn ? { tableArn } : {}),
    exportToTime: to,
    ...(from ? { exportFromTime: from } : {}),
    exportType: 'INCREMENTAL_EXPORT',
  };
  return { dir, type: 'INCREMENTAL_EXPORT', files: [], summary: summary as unknown as OpenedExport['summary'] };
}

const h = (n: number): string => `2026-01-01T0${n}:00:00.000Z`;

describe('checkExportChain: one unbroken history of one table', () => {
  it('accepts a full export alone, and incrementals that follow it and each other (overlap allowed)', () => {
    expect(() => checkExportChain([full()])).not.toThrow();
    expect(() => checkExportChain([full(), inc('i1', h(0), h(1)), inc('i2', h(1), h(2))])).not.toThrow();
    expect(() => checkExportChain([full(h(1)), inc('i1', h(0), h(2))])).not.toThrow();
  });

  it('refuses incrementals out of order (the later state would be rolled back)', () => {
    expect(() => checkExportChain([full(), inc('i2', h(1), h(2)), inc('i1', h(0), h(1))])).toThrow(
      /i1 ends at 2026-01-01T01:00:00.000Z, before the incremental i2 .* does: give the incrementals in time order/,
    );
    expect(() => checkExportChain([full(h(3)), inc('i1', h(0), h(1))])).toThrow(/before the full export .* does/);
  });

  it('refuses a gap: a window no export covers', () => {
    expect(() => checkExportChain([full(), inc('i2', h(1), h(2))])).toThrow(
      /starts at 2026-01-01T01:00:00.000Z, after the full export .* ends at 2026-01-01T00:00:00.000Z: the changes in between are in no export given/,
    );
    expect(() => checkExportChain([full(), inc('i1', h(0), h(1)), inc('i3', h(2), h(3))])).toThrow(
      /i3 starts at .* after the incremental i1/,
    );
  });

  it("refuses another table's incremental, whether its manifest names the table or only its exportArn does", () => {
    expect(() => checkExportChain([full(), inc('o', h(0), h(1), 'arn:aws:dynamodb:us-east-1:000000000000:table/orders')])).toThrow(
      /is of table orders, the full export of users/,
    );
    expect(() => checkExportChain([full(), inc('o', h(0), h(1), null)])).toThrow(/is of table orders/);
  });

  it('refuses an incremental that states no window, and a full export that is not first', () => {
    expect(() => checkExportChain([full(), inc('i', undefined, h(1))])).toThrow(/states no exportFromTime\/exportToTime/);
    expect(() => checkExportChain([inc('i', h(0), h(1))])).toThrow(/the first --export must be a full export/);
    expect(() => checkExportChain([full(), full()])).toThrow(/is a full export: after the first/);
  });
});
