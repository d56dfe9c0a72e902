/** Shows an AppError where it happened, with its fix hint. */
import type { AppError } from '../../../shared/result';
import { InlineCode } from './inline-code-view';

/** Renders an error message (and its fix command, when known); nothing when `error` is undefined. */
export function ErrorBox({ error, title = 'Something went wrong' }: { error: AppError | undefined; title?: string }) {
  if (!error) return null;
  return (
    <div className="alert alert-danger" role="alert" data-testid="error-box" data-error-kind={error.kind}>
      <div className="alert-title">{title}</div>
      <p>
        <InlineCode text={error.message} />
      </p>
      {error.field ? <p className="mono">field: {error.field}</p> : null}
      {error.fix ? (
        <p>
          {/* A fix is a command unless it quotes its commands inside prose. */}
          Fix: {error.fix.includes('`') ? <InlineCode text={error.fix} /> : <code className="fix">{error.fix}</code>}
        </p>
      ) : null}
    </div>
  );
}
