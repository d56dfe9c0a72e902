/** Small coloured labels for kinds, modes and statuses. */
import type { ReactNode } from 'react';

/** Tone of a badge; maps to the theme's semantic colours. */
export type BadgeTone = 'neutral' | 'ok' | 'warn' | 'danger' | 'info';

/** A pill-shaped label. */
export function Badge({ tone = 'neutral', children, title }: { tone?: BadgeTone; children: ReactNode; title?: string }) {
  return (
    <span className={`badge badge-${tone}`} title={title}>
      {children}
    </span>
  );
}
