import type { DataSource } from 'typeorm';
import { LEASE_MS, TOKEN_STATE_CHANNEL, type TokenStateMessage } from './token-state-listener.js';

// The writer's side of the token-state cache (ADR 0023). A request that revoked, deactivated or
// demoted a user does not answer until every replica has seen the change: it sends a barrier message
// after its commit and waits for an ack from each replica holding a lease. NOTIFY delivers in commit
// order, so a replica acking the barrier has already dropped the user's entry. A replica whose
// notification connection is down does not ack; it gives up its lease (and says "reset") on its
// pool, or its lease runs out and with it its trust in its cache. So the wait is short when all is
// well and bounded (LEASE_MS and a margin) when a replica died.

const WAIT_CAP_MS = LEASE_MS + 2_000;

class Barrier {
  /** Our own barrier message arrived: later `reset`s were committed after it. */
  armed = false;
  /** Replicas that answered (ack, or reset after the barrier). */
  readonly answered = new Set<string>();
  expected: Set<string> | undefined;
  restart = false;
  private wake: (() => void) | undefined;

  answer(replica: string): void {
    this.answered.add(replica);
    this.check();
  }

  interrupt(): void {
    this.restart = true;
    this.wake?.();
  }

  check(): void {
    if (this.expected && [...this.expected].every((r) => this.answered.has(r))) this.wake?.();
  }

  /** Resolves when every expected replica answered, on interrupt(), or after `ms`. */
  settle(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.restart) return resolve();
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
      this.check();
    });
  }

  missing(): string[] {
    return [...(this.expected ?? [])].filter((r) => !this.answered.has(r));
  }
}

export class TokenStateBarriers {
  private n = 0;
  private readonly pending = new Map<number, Barrier>();

  constructor(
    private readonly replicaId: string,
    private readonly dataSource: DataSource,
    /** Resolves when our own notification connection is live, or after `ms` (false). */
    private readonly untilLive: (ms: number) => Promise<boolean>,
  ) {}

  onMessage(message: TokenStateMessage): void {
    if (message.kind === 'barrier' && message.replica === this.replicaId) {
      const barrier = this.pending.get(message.n);
      if (barrier) barrier.armed = true;
    } else if (message.kind === 'ack' && message.replica === this.replicaId) {
      this.pending.get(message.n)?.answer(message.from);
    } else if (message.kind === 'reset') {
      for (const barrier of this.pending.values()) if (barrier.armed) barrier.answer(message.replica);
    }
  }

  /** Our notification connection was lost: acks may have been missed, so each barrier starts over. */
  onTrustLost(): void {
    for (const barrier of this.pending.values()) barrier.interrupt();
  }

  /**
   * Resolves once every replica has seen every token-state change committed before the call, or
   * when the wait is capped: then with what is known of those that did not answer (for the log).
   */
  async propagated(): Promise<string[] | undefined> {
    const deadline = performance.now() + WAIT_CAP_MS;
    let missing = ['(own notification connection down)'];
    for (;;) {
      const left = deadline - performance.now();
      if (left <= 0 || !(await this.untilLive(left))) return missing;
      const barrier = new Barrier();
      const n = ++this.n;
      this.pending.set(n, barrier);
      try {
        await this.dataSource.query('SELECT pg_notify($1, $2)', [
          TOKEN_STATE_CHANNEL,
          `barrier:${this.replicaId}:${n}`,
        ]);
        // Listed after the barrier: a replica registering later listens since before it, or says reset.
        const rows = await this.dataSource.query<{ id: string }[]>(
          'SELECT id::text AS id FROM token_state_replicas WHERE lease_until > now()',
        );
        barrier.expected = new Set(rows.map((r) => r.id));
        await barrier.settle(deadline - performance.now());
        missing = barrier.missing();
        if (!barrier.restart) return missing.length > 0 ? missing : undefined;
      } catch (error) {
        // The database is away: the change committed, and replicas cut off from it cannot serve
        // from their caches for long (their leases lapse). Try again until the cap.
        missing = [`(${error instanceof Error ? error.message : String(error)})`];
        await new Promise((resolve) => setTimeout(resolve, Math.min(200, left)));
      } finally {
        this.pending.delete(n);
      }
    }
  }
}
