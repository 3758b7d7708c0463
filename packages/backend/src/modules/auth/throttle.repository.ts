import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

export interface ThrottleState {
  attempts: number;
  /** Seconds until the window resets. */
  retryAfter: number;
}

/**
 * Fixed-window counters in PostgreSQL, so every replica sees the same counts (DESIGN §8).
 * A key is e.g. `ip:1.2.3.4` or `account:alice@example.com`.
 */
@Injectable()
export class ThrottleRepository {
  constructor(private readonly dataSource: DataSource) {}

  async hit(key: string, windowSeconds: number): Promise<ThrottleState> {
    const rows: { attempts: number; retry_after: number }[] = await this.dataSource.query(
      `INSERT INTO auth_throttle AS t (key, window_started_at, attempts) VALUES ($1, now(), 1)
       ON CONFLICT (key) DO UPDATE SET
         attempts = CASE WHEN t.window_started_at <= now() - make_interval(secs => $2) THEN 1 ELSE t.attempts + 1 END,
         window_started_at = CASE WHEN t.window_started_at <= now() - make_interval(secs => $2)
                                  THEN now() ELSE t.window_started_at END
       RETURNING attempts,
         GREATEST(1, ceil(extract(epoch FROM window_started_at + make_interval(secs => $2) - now())))::int AS retry_after`,
      [key, windowSeconds],
    );
    const row = rows[0] ?? { attempts: 1, retry_after: windowSeconds };
    return { attempts: row.attempts, retryAfter: row.retry_after };
  }

  async peek(key: string, windowSeconds: number): Promise<ThrottleState> {
    const rows: { attempts: number; retry_after: number }[] = await this.dataSource.query(
      `SELECT attempts,
         GREATEST(1, ceil(extract(epoch FROM window_started_at + make_interval(secs => $2) - now())))::int AS retry_after
       FROM auth_throttle WHERE key = $1 AND window_started_at > now() - make_interval(secs => $2)`,
      [key, windowSeconds],
    );
    const row = rows[0];
    return row ? { attempts: row.attempts, retryAfter: row.retry_after } : { attempts: 0, retryAfter: 0 };
  }

  async clear(key: string): Promise<void> {
    await this.dataSource.query('DELETE FROM auth_throttle WHERE key = $1', [key]);
  }
}
