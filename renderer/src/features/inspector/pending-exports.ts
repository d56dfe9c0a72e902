/**
 * Report exports waiting on the row store: each is settled by the store's answer, or rejected with
 * the store's error when it fails — a store that broke answers nothing more, and an export left
 * pending would keep its caller waiting for ever.
 */
import type { ShownProblems } from './audit-state';

/** The waiting exports of one inspector. */
export interface PendingExports {
  /** Registers an export, hands its id to `send` (the request to the store), and waits for the answer. */
  readonly ask: (send: (id: number) => void) => Promise<ShownProblems>;
  /** The store's answer to export `id`. */
  readonly answer: (id: number, shown: ShownProblems) => void;
  /** The store failed: every waiting export is rejected with its reason. */
  readonly fail: (reason: string) => void;
}

/** Creates an empty set of waiting exports. */
export function createPendingExports(): PendingExports {
  const waiting = new Map<number, { resolve: (shown: ShownProblems) => void; reject: (error: Error) => void }>();
  let next = 0;
  return {
    ask: (send) =>
      new Promise<ShownProblems>((resolve, reject) => {
        const id = (next += 1);
        waiting.set(id, { resolve, reject });
        send(id);
      }),
    answer(id, shown) {
      waiting.get(id)?.resolve(shown);
      waiting.delete(id);
    },
    fail(reason) {
      const all = [...waiting.values()];
      waiting.clear();
      for (const { reject } of all) reject(new Error(`the export was not made: the inspector lost this audit's rows (${reason})`));
    },
  };
}
