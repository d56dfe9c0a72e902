/**
 * Makes sure child JVMs die with the parent: on normal exit, SIGINT, SIGTERM and SIGHUP.
 * A java process that outlives Locksmith keeps its port and ¼ of RAM, so this is not optional.
 */

/** A child this module will stop when the parent goes away. */
export interface TrackedChild {
  readonly pid: number;
  /** Graceful stop (SIGTERM, then SIGKILL after a grace period); idempotent. */
  stop(): Promise<void>;
}

const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
const tracked = new Set<TrackedChild>();
let installed = false;

function killNow(): void {
  // 'exit' handlers must be synchronous: SIGKILL is the only signal certain to end the JVM before we are gone.
  for (const child of tracked) {
    try {
      process.kill(child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  tracked.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  const stops = Promise.allSettled([...tracked].map((child) => child.stop()));
  // Someone else (the CLI, Electron) also handles this signal: they decide when to exit; we only stop our children.
  if (process.listenerCount(signal) > 1) return;
  void stops.then(() => {
    uninstall();
    // Re-raise so the process ends the way it would have without our handler (exit status 128 + signal).
    process.kill(process.pid, signal);
  });
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', killNow);
  for (const signal of SIGNALS) process.on(signal, onSignal);
}

function uninstall(): void {
  if (!installed) return;
  installed = false;
  process.off('exit', killNow);
  for (const signal of SIGNALS) process.off(signal, onSignal);
}

/** Registers a child to be stopped on parent exit or signal; returns a function that unregisters it. */
export function trackChild(child: TrackedChild): () => void {
  tracked.add(child);
  install();
  return () => {
    tracked.delete(child);
    // Restore default signal behaviour once nothing needs cleaning up.
    if (tracked.size === 0) uninstall();
  };
}

/** The number of children currently tracked (for tests and diagnostics). */
export function trackedChildCount(): number {
  return tracked.size;
}
