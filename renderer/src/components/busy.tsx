/** An inline "working…" indicator for short actions. */

/** A spinner with text, announced politely to screen readers. */
export function Busy({ label }: { label: string }) {
  return (
    <span className="row muted" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {label}
    </span>
  );
}
