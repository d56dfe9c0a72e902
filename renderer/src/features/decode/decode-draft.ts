/**
 * The decoder's input, kept while the window is open: the Decode tab unmounts when another tab is
 * chosen, and a pasted cancellation must still be there on the way back. Memory only (never
 * written anywhere: a pasted request can hold item values).
 */
import { useCallback, useState } from 'react';

/** What the decoder form holds. */
export interface DecodeDraft {
  readonly text: string;
  readonly request: string;
}

let kept: DecodeDraft = { text: '', request: '' };

/** The draft and its setter; the value outlives the component. */
export function useDecodeDraft(): readonly [DecodeDraft, (next: Partial<DecodeDraft>) => void] {
  const [draft, setDraft] = useState(kept);
  const update = useCallback((next: Partial<DecodeDraft>) => {
    kept = { ...kept, ...next };
    setDraft(kept);
  }, []);
  return [draft, update];
}
