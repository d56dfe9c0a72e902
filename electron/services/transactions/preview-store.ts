/** Previews kept by main under an id until they expire: the kept-write store (kept-writes.ts) in the words of a preview. */
import type { BuiltTransaction, Preview, TransactionSpec } from '../../../shared/transactions/types';
import type { Convention, LockRule } from '../../../shared/model';
import { KeptWrites, PREVIEW_TTL_MS, type Clock, type KeptTerms, type KeptWords } from './kept-writes';

export { PREVIEW_TTL_MS, type Clock } from './kept-writes';

/** How a preview is spoken of in refusals. */
export const PREVIEW_WORDS: KeptWords = { noun: 'preview', again: 'preview again', field: 'previewId', prefix: 'pv_' };

/** Everything execute needs besides the preview itself (its owner is the connection it was made on: it is sent there only). */
export interface StoredPreview extends KeptTerms {
  readonly preview: Preview;
  readonly built: BuiltTransaction;
  readonly convention: Convention;
  /** The rules the transaction's actions name, looked up once when it was built (execute uses them as they are). */
  readonly rules: ReadonlyMap<string, LockRule>;
  readonly spec: TransactionSpec;
}

/** An in-memory store of previews with expiry and single-use claims. */
export class PreviewStore extends KeptWrites<StoredPreview> {
  constructor(clock: Clock = Date.now, ttlMs: number = PREVIEW_TTL_MS) {
    super(PREVIEW_WORDS, clock, ttlMs);
  }
}
