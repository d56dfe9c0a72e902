import { describe, expect, it } from 'vitest';
import { adminLine } from './admin-bench';

describe('adminLine', () => {
  const admin = { ms: 90_000, items: 133_350, expected: 133_350, complete: true, pages: 134, pageSize: 1_000, version: '5.3.3' };

  it('puts what each tool gives the user beside its time, with the ratio of the same run', () => {
    const line = adminLine(admin, 4_500, 6_000);
    expect(line).toContain('dynamodb-admin 5.3.3: 90.0 s to page through the 133,350 `UNIQ#` items');
    expect(line).toContain('`locksmith audit` (whole process, median, same run): 4.5 s');
    expect(line).toContain('6,000 problems by kind (20× faster)');
  });

  it('says a listing stopped at the budget is partial, and labels the whole time as extrapolated', () => {
    const line = adminLine({ ...admin, items: 13_335, complete: false, pages: 14, ms: 120_000 }, 4_000, 6_000);
    expect(line).toContain('13,335 of the 133,350 `UNIQ#` items in 120.0 s');
    expect(line).toContain('~20 min (**extrapolated, not measured**)');
    expect(line).toContain('(300× faster, against the extrapolation)');
  });

  it('says only what was measured when the CLI figure is missing', () => {
    expect(adminLine(admin, undefined, 6_000)).not.toContain('locksmith audit');
  });
});
