/** Shows a stored value or key with its hidden characters (bidi controls, zero-width…) as visible marks. */
import { visibleParts, visibleString } from '../../../shared/visible-text';

/**
 * The text isolated from its surroundings (an override inside cannot reorder the page around it), each
 * hidden character as a small mark naming it, and the whole value, marks written out, as its tooltip.
 */
export function VisibleText({ text, className }: { readonly text: string; readonly className?: string }) {
  const parts = visibleParts(text);
  return (
    <span className={`visible-text${className ? ` ${className}` : ''}`} title={visibleString(text)}>
      {parts.map((part, i) =>
        'code' in part ? (
          <span key={i} className="hidden-char" data-hidden-char={part.code} title={`${part.code} ${part.name}`}>
            {part.name}
          </span>
        ) : (
          <bdi key={i}>{part.text}</bdi>
        ),
      )}
    </span>
  );
}
