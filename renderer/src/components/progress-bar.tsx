/** Shows the progress of a long action: a bar plus the numbers behind it. */
import type { ReactNode } from 'react';

/** Props of {@link ProgressBar}: `fraction` in [0, 1], or undefined when the total is unknown. */
export interface ProgressBarProps {
  readonly label: string;
  readonly fraction?: number;
  readonly children?: ReactNode;
  readonly actions?: ReactNode;
  /**
   * The spinning mark beside the label (default: shown). Off where the numbers below already change
   * several times a second: an endless CSS animation makes the browser draw a frame every vsync, and
   * without GPU compositing (a VM, a remote box, the bench's headless Chromium) that took seconds of the
   * GPU process's and the renderer's CPU during one audit, CPU the scan needed.
   */
  readonly spinner?: boolean;
}

/** A labelled progress bar (indeterminate when `fraction` is undefined) with stats and actions. */
export function ProgressBar({ label, fraction, children, actions, spinner = true }: ProgressBarProps) {
  const percent = fraction === undefined ? undefined : Math.round(Math.min(1, Math.max(0, fraction)) * 100);
  return (
    <div className="progress" data-testid="progress">
      <div className="row">
        {spinner ? <span className="spinner" aria-hidden="true" /> : null}
        <strong>{label}</strong>
        <span className="spacer" />
        {actions}
      </div>
      <div className="progress-track" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
        <div className="progress-fill" style={{ width: `${percent ?? 35}%` }} />
      </div>
      {children ? <div className="progress-stats">{children}</div> : null}
    </div>
  );
}
