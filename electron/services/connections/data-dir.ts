/** The app's data folder: settings, audit log. `LOCKSMITH_DATA_DIR` wins (tests, portable installs). */
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Resolves the data folder for this OS without Electron (the CLI and browser mode use it too). */
export function resolveDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home: string = homedir()): string {
  if (env.LOCKSMITH_DATA_DIR) return env.LOCKSMITH_DATA_DIR;
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Locksmith');
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'Locksmith');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'locksmith');
}
