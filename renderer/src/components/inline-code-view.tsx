/** Prose with `code` runs shown as code (messages and fixes written for a terminal). */
import { inlineCodeRuns } from './inline-code';

/** Renders `text`, its backtick-quoted runs as <code>. */
export function InlineCode({ text }: { readonly text: string }) {
  return (
    <>
      {inlineCodeRuns(text).map((run, i) =>
        run.code ? (
          <code key={i} className="fix">
            {run.text}
          </code>
        ) : (
          <span key={i}>{run.text}</span>
        ),
      )}
    </>
  );
}
