/**
 * The app's data folder: settings, activity log. `LOCKSMITH_DATA_DIR` wins (tests, portable installs).
 * It holds what grants writes (settings' `writable`) and the record of every write (the activity log),
 * so it is verified, not trusted as found: created 0700, refused when others can write to it, and
 * its files opened without following symbolic links.
 */
import { constants } from 'node:fs';
import { chmod, lstat, mkdir, open, stat, type FileHandle } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Resolves the data folder for this OS without Electron (the CLI and browser mode use it too). */
export function resolveDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  if (env.LOCKSMITH_DATA_DIR) return env.LOCKSMITH_DATA_DIR;
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Locksmith');
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'Locksmith');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'locksmith');
}

/** A data folder (or file in it) that must not be used as it is; the message says how to fix it. */
export class DataDirError extends Error {
  override readonly name = 'DataDirError';
}

/** 0 where the OS has no O_NOFOLLOW (Windows); the lstat checks below still refuse links there. */
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * Creates the folder 0700, or checks an existing one: a group- or world-writable folder is refused
 * (anyone could swap its files), a group- or world-readable one is tightened to 0700.
 */
export async function ensureDataDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if (process.platform === 'win32') return;
  const info = await stat(dir);
  if (!info.isDirectory()) throw new DataDirError(`data folder ${dir} is not a folder`);
  const uid = process.getuid?.();
  if (uid !== undefined && info.uid !== uid)
    throw new DataDirError(`data folder ${dir} belongs to another user (uid ${info.uid}): use a folder of your own (LOCKSMITH_DATA_DIR)`);
  const mode = info.mode & 0o777;
  if (mode & 0o022)
    throw new DataDirError(
      `data folder ${dir} is writable by ${mode & 0o002 ? 'every user' : 'its group'} (mode ${mode.toString(8).padStart(4, '0')}): run \`chmod 700 ${dir}\``,
    );
  if (mode & 0o077) await chmod(dir, 0o700);
}

/** Opens a file of the data folder without following a symbolic link (a link is refused, naming the file). */
export async function openNoFollow(path: string, flags: number, mode = 0o600): Promise<FileHandle> {
  if (NOFOLLOW === 0) {
    const info = await lstat(path).catch(() => undefined);
    if (info?.isSymbolicLink())
      throw new DataDirError(`${path} is a symbolic link: refused (remove it; Locksmith creates the file itself)`);
  }
  try {
    return await open(path, flags | NOFOLLOW, mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP')
      throw new DataDirError(`${path} is a symbolic link: refused (remove it; Locksmith creates the file itself)`);
    throw error;
  }
}
