// The provider's lifecycle lock (reference §2.4, Appendix A): an async mutex that is re-entrant for
// the async context holding it. AsyncLocalStorage marks that context, so a hook that calls back into a
// public method runs inside the held lock (and meets the lifecycle checks, e.g. "Recursive metadata
// initialization") instead of queueing behind itself forever; other contexts queue in FIFO order.
import { AsyncLocalStorage } from 'node:async_hooks';

export class AsyncReentrantLock {
  private readonly context = new AsyncLocalStorage<symbol>();
  private holder: symbol | null = null;
  private tail: Promise<void> = Promise.resolve();

  /** Whether the calling async context holds the lock. */
  get heldByCurrentContext(): boolean {
    return this.holder !== null && this.context.getStore() === this.holder;
  }

  /** Runs `task` holding the lock; re-entrant for the holding context. */
  async run<T>(task: () => Promise<T> | T): Promise<T> {
    if (this.heldByCurrentContext) return task();
    let release!: () => void;
    const previous = this.tail;
    this.tail = new Promise<void>((resolve) => (release = resolve));
    await previous;
    // A fresh token per acquisition: work a task left running after release is not treated as the holder.
    const token = Symbol('lifecycle-lock');
    this.holder = token;
    try {
      return await this.context.run(token, task);
    } finally {
      this.holder = null;
      release();
    }
  }
}
