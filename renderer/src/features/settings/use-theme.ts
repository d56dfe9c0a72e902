/** The colour theme: follows the OS by default; a toggle picks light or dark and is saved through settings. */
import { useCallback, useEffect, useState } from 'react';
import type { UiSettings } from '../../../../shared/contract';
import { useBridge } from '../../bridge/bridge-context';
import type { AppError } from '../../../../shared/result';

/** A theme choice. */
export type ThemeChoice = UiSettings['theme'];

/** Applies the choice to <html data-theme>; `system` removes it so the CSS media query decides. */
function applyTheme(theme: ThemeChoice): void {
  if (theme === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
}

/** The saved theme, a setter that saves it, and any error from loading or saving. */
export function useTheme(): { theme: ThemeChoice; setTheme: (theme: ThemeChoice) => void; error: AppError | undefined; loaded: boolean } {
  const bridge = useBridge();
  const [theme, setThemeState] = useState<ThemeChoice>('system');
  const [error, setError] = useState<AppError>();
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    let live = true;
    void bridge.call('settings.get', {}).then((result) => {
      if (!live) return;
      if (result.ok) setThemeState(result.value.theme);
      else setError(result.error);
      setLoaded(true);
    });
    return () => {
      live = false;
    };
  }, [bridge]);

  useEffect(() => applyTheme(theme), [theme]);

  const setTheme = useCallback(
    (next: ThemeChoice) => {
      setThemeState(next);
      void bridge.call('settings.set', { theme: next }).then((result) => setError(result.ok ? undefined : result.error));
    },
    [bridge],
  );
  return { theme, setTheme, error, loaded };
}
