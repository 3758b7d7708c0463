import { EventEmitter, once } from 'node:events';
import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type ResolvedConfig } from '../../config/config.js';
import { queryPrepared } from '../../database/prepared-query.js';
import { TokenStateBarriers } from './token-state-barrier.js';
import { TOKEN_STATE_CHANNEL, type TokenStateMessage, TokenStateListener } from './token-state-listener.js';

/** What the auth guard needs of a user on every request. */
export interface TokenState {
  is_active: boolean;
  is_superuser: boolean;
  user_type: 'regular' | 'technical';
  token_version: number;
}

const TOKEN_STATE_SQL = 'SELECT is_active, is_superuser, user_type, token_version FROM users WHERE id = $1';
/** Users are few; past this many the oldest entries go (a miss is one indexed read). */
const MAX_ENTRIES = 50_000;

/**
 * The token state of users, per replica, kept current by PostgreSQL (ADR 0023): a trigger on `users`
 * NOTIFYs every change of is_active, is_superuser or token_version, and the notification connection
 * drops the entry. Whenever that connection is not known to be good (starting, lost, reconnecting,
 * lease not renewed), `get` reads the row, as the guard did before the cache, and stores nothing.
 *
 * Events (for tests and logs): `live` (serving from memory from now on), `lost` (reading rows),
 * `message` (a message of the channel, after it was applied).
 */
@Injectable()
export class TokenStateCache extends EventEmitter implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(TokenStateCache.name);
  private readonly entries = new Map<string, TokenState>();
  /** Bumped by every invalidation: a read that started before one does not store its row. */
  private generation = 0;
  private readonly listener: TokenStateListener;
  private readonly barriers: TokenStateBarriers;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) config: ResolvedConfig,
  ) {
    super();
    this.listener = new TokenStateListener(
      config.databaseUrl,
      {
        message: (message) => this.apply(message),
        trustLost: () => {
          this.forgetAll();
          this.barriers.onTrustLost();
          this.emit('lost');
        },
        live: () => {
          this.logger.log('token-state notifications live: token state served from memory');
          this.emit('live');
        },
        disconnected: (error) =>
          this.logger.warn(
            `token-state notification connection lost (${error instanceof Error ? error.message : String(error)}); reading user rows until it is back`,
          ),
      },
      (replicaId) => this.surrender(replicaId),
    );
    this.barriers = new TokenStateBarriers(this.listener.replicaId, dataSource, (ms) => this.untilLive(ms));
  }

  onModuleInit(): void {
    this.listener.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.listener.stop();
  }

  /** Whether `get` answers from memory right now. */
  get trusted(): boolean {
    return this.listener.trusted();
  }

  get replicaId(): string {
    return this.listener.replicaId;
  }

  /** The backend pid of the notification connection, while live. */
  get listenerPid(): number | undefined {
    return this.listener.backendPid;
  }

  /**
   * The user's token state when memory may answer for it right now, without a promise; otherwise
   * undefined, and `get` reads it.
   */
  cached(userId: string): TokenState | undefined {
    return this.listener.trusted() ? this.entries.get(userId) : undefined;
  }

  /** The user's token state, or undefined when there is no such user. */
  async get(userId: string): Promise<TokenState | undefined> {
    if (!this.listener.trusted()) return this.read(userId);
    const hit = this.entries.get(userId);
    if (hit) return hit;
    const generation = this.generation;
    const row = await this.read(userId);
    // Stored only if nothing was invalidated while the row was read: the read may predate the change.
    if (row && generation === this.generation && this.listener.trusted()) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(userId, row);
    }
    return row;
  }

  /**
   * For a request that changed a user's token state: resolves once every replica has dropped what it
   * knew (bounded: a replica that does not answer stops trusting its cache within its lease).
   */
  async propagated(): Promise<void> {
    const missing = await this.barriers.propagated();
    if (missing)
      this.logger.warn(`token-state change not acknowledged by every replica: ${missing.join(', ')}`);
  }

  private async read(userId: string): Promise<TokenState | undefined> {
    const rows = await queryPrepared<TokenState>(this.dataSource, TOKEN_STATE_SQL, [userId]);
    return rows[0];
  }

  private apply(message: TokenStateMessage): void {
    if (message.kind === 'user') {
      this.generation++;
      this.entries.delete(message.userId);
    } else if (message.kind === 'all') {
      this.forgetAll();
    } else if (message.kind === 'barrier') {
      // Everything committed before the barrier has been applied above: say so.
      this.listener.notify(`ack:${message.replica}:${message.n}:${this.listener.replicaId}`);
    }
    this.barriers.onMessage(message);
    this.emit('message', message);
  }

  private forgetAll(): void {
    this.generation++;
    this.entries.clear();
  }

  /** On the pool: writers stop waiting for this replica (its lease ends, and it holds nothing). */
  private async surrender(replicaId: string): Promise<void> {
    await this.dataSource.query(
      `WITH s AS (UPDATE token_state_replicas SET lease_until = now() WHERE id = $1)
       SELECT pg_notify($2, $3)`,
      [replicaId, TOKEN_STATE_CHANNEL, `reset:${replicaId}`],
    );
  }

  private async untilLive(ms: number): Promise<boolean> {
    if (this.listener.trusted()) return true;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), ms);
    try {
      await once(this, 'live', { signal: controller.signal });
      return true;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }
}
