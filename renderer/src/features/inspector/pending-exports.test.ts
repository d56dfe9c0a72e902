import { describe, expect, it } from 'vitest';
import { createPendingExports } from './pending-exports';

describe('pending report exports', () => {
  it("settle with the store's answer, each by its id", async () => {
    const pending = createPendingExports();
    const ids: number[] = [];
    const first = pending.ask((id) => ids.push(id));
    const second = pending.ask((id) => ids.push(id));
    pending.answer(ids[1]!, { rowsShown: 2, problems: [] });
    pending.answer(ids[0]!, { rowsShown: 1, problems: [] });
    expect(await first).toEqual({ rowsShown: 1, problems: [] });
    expect(await second).toEqual({ rowsShown: 2, problems: [] });
  });

  it("are rejected with the store's error when it fails (it answers nothing more), and later ones still work", async () => {
    const pending = createPendingExports();
    const waiting = pending.ask(() => undefined);
    pending.fail("the row store's worker stopped: out of memory");
    await expect(waiting).rejects.toThrow("the inspector lost this audit's rows (the row store's worker stopped: out of memory)");
    let id = 0;
    const after = pending.ask((given) => (id = given));
    pending.answer(id, { rowsShown: 0, problems: [] });
    await expect(after).resolves.toEqual({ rowsShown: 0, problems: [] });
  });
});
