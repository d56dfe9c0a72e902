/**
 * Whether a table is being opened (its audit starting) anywhere in the page: the overview's survey
 * starts no new request meanwhile, so the server's one thread and the connection serve the table a
 * person is waiting for first (the server holds its survey work back the same way: shared/yield-gate.ts).
 */
import { YieldGate } from '../../../../shared/yield-gate';

const opening = new YieldGate();

/** Marks a table as being opened until the returned function is called (once; later calls do nothing). */
export function beginOpening(): () => void {
  return opening.enter();
}

/** Resolves at once when no table is being opened, else when the last opening ends. */
export function whenNotOpening(): Promise<void> {
  return opening.clear();
}
