/** Whether a process is still running (a zombie counts as gone: it holds no port and no memory). */
import { readFileSync } from 'node:fs';

/** True when `pid` exists and is not a zombie. */
export function isProcessAlive(pid: number): boolean {
  try {
    // /proc/<pid>/stat: "pid (comm) S …" — the state letter follows the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && process.platform === 'linux') return false;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Resolves true once `pid` is gone, false if it is still alive after `timeoutMs` (polls; no fixed sleep). */
export async function waitForProcessExit(pid: number, timeoutMs = 15_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isProcessAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}
