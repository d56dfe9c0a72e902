/**
 * Whether a table is being opened (its audit starting) anywhere in the page: the overview's survey
 * starts no new request meanwhile, so the server's one thread and the connection serve the table a
 * person is waiting for first (the server also holds survey work back: electron/services/fleet/yield-gate.ts).
 */

let opening = 0;
let waiters: (() => void)[] = [];

/** Marks a table as being opened until the returned function is called (once; later calls do nothing). */
export function beginOpening(): () => void {
  opening++;
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    opening--;
    if (opening > 0) return;
    const ready = waiters;
    waiters = [];
    for (const resolve of ready) resolve();
  };
}

/** Resolves at once when no table is being opened, else when the last opening ends. */
export function whenNotOpening(): Promise<void> {
  return opening === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve));
}
