/**
 * Work a person waits for ahead of background work on one thread. The server runs an opened table's
 * audit start as foreground work, and the overview's survey of the other tables (a sample read and a
 * detection each, 200+ ms of CPU at once) waits between its steps; the page keeps one too, so the
 * overview asks for no new survey while a table is being opened.
 */

/** Counts foreground work in progress; background work awaits {@link YieldGate.clear} between its steps. */
export class YieldGate {
  private active = 0;
  private waiters: (() => void)[] = [];

  /** Runs `work` as foreground work: background work waits until no foreground work runs. */
  async during<T>(work: () => Promise<T>): Promise<T> {
    const leave = this.enter();
    try {
      return await work();
    } finally {
      leave();
    }
  }

  /** Starts foreground work that ends when the returned function is first called (later calls do nothing). */
  enter(): () => void {
    this.active++;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.active--;
      if (this.active === 0) this.release();
    };
  }

  /** True while foreground work runs. */
  get busy(): boolean {
    return this.active > 0;
  }

  /** Resolves at once when no foreground work runs, else when the last of it ends. */
  clear(): Promise<void> {
    return this.active === 0 ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve));
  }

  private release(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}
