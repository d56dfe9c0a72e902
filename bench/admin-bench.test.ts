import { describe, expect, it } from 'vitest';
import { adminLine } from './admin-bench';

describe('adminLine', () => {
  const admin = { ms: 90_000, items: 133_350, pages: 14, pageSize: 10_000, version: '5.3.3' };

  it('puts what each tool gives the user beside its time, with the ratio of the same run', () => {
    const line = adminLine(admin, 4_500, 6_000);
    expect(line).toContain('dynamodb-admin 5.3.3: 90.0 s to page through the 133,350 `UNIQ#` items');
    expect(line).toContain('`locksmith audit` (whole process, median, same run): 4.5 s');
    expect(line).toContain('6,000 problems by kind (20.0× faster)');
  });

  it('says only what was measured when the CLI figure is missing', () => {
    expect(adminLine(admin, undefined, 6_000)).not.toContain('locksmith audit');
  });
});
