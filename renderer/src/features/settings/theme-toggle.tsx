/** The theme switch in the header: System / Light / Dark. */
import type { ThemeChoice } from './use-theme';

const CHOICES: readonly { value: ThemeChoice; label: string }[] = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/** A labelled segmented control; the choice is saved by the caller. */
export function ThemeToggle({ theme, onChange }: { theme: ThemeChoice; onChange: (theme: ThemeChoice) => void }) {
  return (
    <div className="segmented" role="group" aria-label="Colour theme">
      {CHOICES.map((choice) => (
        <button
          key={choice.value}
          type="button"
          aria-pressed={theme === choice.value}
          onClick={() => onChange(choice.value)}
          data-testid={`theme-${choice.value}`}
        >
          {choice.label}
        </button>
      ))}
    </div>
  );
}
