import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { connectClient } from '../../database/pg-client.js';

// The notification connection of the token-state cache (ADR 0023): one dedicated PostgreSQL
// connection per replica that LISTENs on `aide_token_state` and holds the replica's lease in
// `token_state_replicas`. The cache may serve from memory only while this is `trusted()`: connected,
// listening, registered, and the lease renewed recently enough that no writer has given up on us.

export const TOKEN_STATE_CHANNEL = 'aide_token_state';
export const LISTENER_APPLICATION_NAME = 'aide-metastore-token-state';
/** A replica's lease: writers wait at most this long for a replica that stopped answering. */
export const LEASE_MS = 10_000;
const RENEW_EVERY_MS = 2_500;
/** Trust ends this much before the lease does (clock rates, the renewal's own round trip). */
const TRUST_MARGIN_MS = 1_000;
const RETRY_MIN_MS = 100;
const RETRY_MAX_MS = 5_000;
const STOP_TIMEOUT_MS = 2_000;

export type TokenStateMessage =
  | { kind: 'user'; userId: string }
  | { kind: 'all' }
  | { kind: 'barrier'; replica: string; n: number }
  | { kind: 'ack'; replica: string; n: number; from: string }
  | { kind: 'reset'; replica: string };

/** The payloads: `u:<user id>` and `all` from the trigger; `barrier:`, `ack:`, `reset:` between replicas. */
export function parseMessage(payload: string): TokenStateMessage | undefined {
  const [kind, a, b, c] = payload.split(':');
  if (kind === 'all') return { kind: 'all' };
  if (kind === 'u' && a) return { kind: 'user', userId: a };
  if (kind === 'reset' && a) return { kind: 'reset', replica: a };
  if (kind === 'barrier' && a && b) return { kind: 'barrier', replica: a, n: Number(b) };
  if (kind === 'ack' && a && b && c) return { kind: 'ack', replica: a, n: Number(b), from: c };
  return undefined;
}

export interface ListenerEvents {
  /** Every message, in commit order, before anything else of this connection is read. */
  message(message: TokenStateMessage): void;
  /** The cache may be stale from now on: it must forget everything before `trusted()` is true again. */
  trustLost(): void;
  /** Registered and listening: `trusted()` is true. */
  live(): void;
  /** The connection was lost (logged by the owner); a reconnect is scheduled. */
  disconnected(error: unknown): void;
}

interface Attempt {
  client?: pg.Client;
}

export class TokenStateListener {
  /** This replica's id in `token_state_replicas` and in barrier messages; new at every start. */
  readonly replicaId = randomUUID();
  private attempt: Attempt | undefined;
  private live = false;
  private stopped = false;
  private trustUntil = 0;
  private renewTimer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryMs = RETRY_MIN_MS;

  constructor(
    private readonly url: string,
    private readonly on: ListenerEvents,
    /** Gives up this replica's lease and says it holds nothing, on another connection (the pool). */
    private readonly surrender: (replicaId: string) => Promise<void>,
  ) {}

  /** Whether the cache may answer from memory. */
  trusted(): boolean {
    return this.live && performance.now() < this.trustUntil;
  }

  /** The PostgreSQL backend of the notification connection (tests cut it with pg_terminate_backend). */
  get backendPid(): number | undefined {
    // node-postgres sets processID from BackendKeyData; its type declarations leave it out.
    const client = this.attempt?.client as unknown as { processID?: number } | undefined;
    return this.live ? client?.processID : undefined;
  }

  start(): void {
    void this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.live = false;
    clearInterval(this.renewTimer);
    clearTimeout(this.retryTimer);
    const client = this.attempt?.client;
    this.attempt = undefined;
    if (!client) return;
    const deregister = client
      .query('DELETE FROM token_state_replicas WHERE id = $1', [this.replicaId])
      .then(() => client.end());
    await Promise.race([deregister, new Promise((r) => setTimeout(r, STOP_TIMEOUT_MS).unref())]).catch(
      () => undefined,
    );
  }

  /** Sends a message on the notification connection (acks); a failure is a lost connection. */
  notify(payload: string): void {
    const attempt = this.attempt;
    const client = attempt?.client;
    if (!attempt || !client) return;
    client
      .query('SELECT pg_notify($1, $2)', [TOKEN_STATE_CHANNEL, payload])
      .catch((error: unknown) => this.lost(attempt, error));
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const attempt: Attempt = {};
    this.attempt = attempt;
    try {
      const client = await connectClient(this.url, {
        applicationName: LISTENER_APPLICATION_NAME,
        onError: (error) => this.lost(attempt, error),
      });
      attempt.client = client;
      if (this.attempt !== attempt) {
        await client.end();
        return;
      }
      client.on('end', () => this.lost(attempt, new Error('notification connection ended')));
      client.on('notification', (n) => {
        if (this.attempt !== attempt || n.channel !== TOKEN_STATE_CHANNEL || !n.payload) return;
        const message = parseMessage(n.payload);
        if (message) this.on.message(message);
      });
      await client.query(`LISTEN ${TOKEN_STATE_CHANNEL}`);
      // Registered only once listening: a writer that sees this lease can count on our ack.
      await client.query(`DELETE FROM token_state_replicas WHERE lease_until < now() - interval '1 day'`);
      await this.renew(attempt);
      // "I hold nothing older than this": a writer waiting on us since before we listened counts it.
      await client.query('SELECT pg_notify($1, $2)', [TOKEN_STATE_CHANNEL, `reset:${this.replicaId}`]);
      if (this.attempt !== attempt) return;
      this.live = true;
      this.retryMs = RETRY_MIN_MS;
      this.renewTimer = setInterval(() => {
        this.renew(attempt).catch((error: unknown) => this.lost(attempt, error));
      }, RENEW_EVERY_MS);
      this.renewTimer.unref();
      this.on.live();
    } catch (error) {
      this.lost(attempt, error);
    }
  }

  /** Extends the lease; trust runs from when the renewal was sent, not from when it returned. */
  private async renew(attempt: Attempt): Promise<void> {
    const client = attempt.client;
    if (!client) return;
    const sentAt = performance.now();
    // Trust lapsed (a stalled renewal, a blocked event loop): start again from an empty cache.
    const lapsed = this.live && sentAt >= this.trustUntil;
    if (lapsed) this.on.trustLost();
    await client.query(
      `INSERT INTO token_state_replicas (id, lease_until) VALUES ($1, now() + make_interval(secs => $2))
       ON CONFLICT (id) DO UPDATE SET lease_until = EXCLUDED.lease_until`,
      [this.replicaId, LEASE_MS / 1000],
    );
    if (this.attempt !== attempt) return;
    this.trustUntil = sentAt + LEASE_MS - TRUST_MARGIN_MS;
    if (lapsed) this.on.live();
  }

  private lost(attempt: Attempt, error: unknown): void {
    if (this.attempt !== attempt || this.stopped) return;
    const wasLive = this.live;
    this.attempt = undefined;
    this.live = false;
    this.trustUntil = 0;
    clearInterval(this.renewTimer);
    this.on.trustLost();
    const client = attempt.client;
    if (client) {
      client.removeAllListeners('notification');
      client.end().catch(() => undefined);
    }
    if (wasLive) {
      this.on.disconnected(error);
      this.surrender(this.replicaId).catch(() => undefined);
    }
    this.retryTimer = setTimeout(() => void this.connect(), this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
  }
}
