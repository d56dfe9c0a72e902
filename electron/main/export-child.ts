/**
 * The export audit's child in the app: started with Electron's utilityProcess, a Node process of
 * Chromium's service model. The packaged app flips the runAsNode fuse off, so Node's `fork` from
 * main would start a second copy of the app instead of Node (Electron's fuses documentation).
 */
import { utilityProcess } from 'electron';
import type { ChildLauncher } from '../services/export/run-export-audit';

/**
 * Starts the child with utilityProcess; messages cross `process.parentPort` in the child. Its stdout
 * is ignored (a pipe nobody reads blocks the child once the pipe's buffer is full); stderr is piped
 * and read, for the message when it ends before reporting.
 */
export const utilityLauncher: ChildLauncher = (entry) => {
  const child = utilityProcess.fork(entry.path, [], {
    execArgv: [...entry.execArgv],
    stdio: ['ignore', 'ignore', 'pipe'],
    serviceName: 'Locksmith export audit',
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    if (stderr.length < 4000) stderr += chunk.toString();
  });
  return {
    send: (request) => child.postMessage(request),
    onMessage: (listener) => child.on('message', listener),
    onEnd: (listener) => {
      child.once('exit', (code) => listener(`exit ${code}`));
    },
    stderrTail: () => stderr.trim().split('\n').slice(-3).join(' '),
    kill: (force) => {
      // utilityProcess.kill() only sends SIGTERM; SIGKILL goes to its pid (gone already: nothing to do).
      if (!force || child.pid === undefined) child.kill();
      else {
        try {
          process.kill(child.pid, 'SIGKILL');
        } catch {
          // ESRCH: it exited meanwhile; its 'exit' still ends the run.
        }
      }
    },
  };
};
