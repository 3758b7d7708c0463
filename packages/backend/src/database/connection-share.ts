/**
 * A bounded share of the connection pool for one class of expensive reads (ADR 0034): at most
 * `concurrency` of them run at once, at most `queue` more wait for a turn (first come, first served),
 * and any beyond that are refused at once. So a flood of such reads holds at most `concurrency`
 * connections, and the rest of the API keeps the others. Per process: each replica has its own.
 */
export class ConnectionShare {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly concurrency: number,
    readonly queue: number,
  ) {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError('concurrency must be ≥ 1');
    if (!Number.isInteger(queue) || queue < 0) throw new RangeError('queue must be ≥ 0');
  }

  /** Reads running and waiting now (for tests and diagnostics). */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /**
   * Runs `work` once a slot is free; throws `refuse()` at once when every slot is taken and the queue
   * is full. The slot is released when `work` settles, and handed straight to the next in the queue.
   */
  async run<T>(work: () => Promise<T>, refuse: () => Error): Promise<T> {
    if (this.running < this.concurrency) this.running++;
    else if (this.waiting.length < this.queue) await new Promise<void>((turn) => this.waiting.push(turn));
    else throw refuse();
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      // The slot passes to the next in line as it is (still counted as running), or is freed.
      if (next) next();
      else this.running--;
    }
  }
}
