/** A modal dialog on the native <dialog> element: focus is trapped, Esc closes it, focus returns on close. */
import { useEffect, useId, useRef, type ReactNode } from 'react';

/** Props of {@link Dialog}. */
export interface DialogProps {
  readonly title: string;
  readonly onClose: () => void;
  readonly children: ReactNode;
  readonly size?: 'small' | 'large';
  readonly testId?: string;
}

/** Opens as a modal while mounted; unmount it (or press Esc / Close) to close. */
export function Dialog({ title, onClose, children, size = 'large', testId }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // Keep the latest onClose without re-running the open effect on every render.
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  }, [onClose]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return undefined;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog.showModal();
    const onCancel = (event: Event) => {
      // Esc: let React decide (unmount) rather than the browser closing the element behind our back.
      event.preventDefault();
      onCloseRef.current();
    };
    dialog.addEventListener('cancel', onCancel);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      if (dialog.open) dialog.close();
      opener?.focus();
    };
  }, []);

  return (
    <dialog ref={ref} className={`dialog ${size === 'small' ? 'dialog-small' : ''}`} aria-labelledby={titleId} data-testid={testId}>
      <div className="dialog-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="btn btn-small" onClick={onClose} aria-label="Close dialog">
          Close{' '}
          <span className="kbd" aria-hidden="true">
            Esc
          </span>
        </button>
      </div>
      {children}
    </dialog>
  );
}
