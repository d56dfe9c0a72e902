/** A button that copies text to the clipboard and says whether it worked. */
import { useState } from 'react';

/** Copies `text`; the label names what is copied (for screen readers and tests). */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = () => {
    // Clipboard access can be refused (permissions, insecure context): say so instead of failing silently.
    navigator.clipboard.writeText(text).then(
      () => setState('copied'),
      () => setState('failed'),
    );
  };
  return (
    <button type="button" className="btn btn-small" onClick={copy} aria-label={label}>
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed — select the text' : 'Copy'}
    </button>
  );
}
