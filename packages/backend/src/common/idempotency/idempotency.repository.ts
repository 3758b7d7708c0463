import { registerConstraintCodes } from '../errors/db-error.js';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

// Keys belong to a user, and users are never deleted (deactivated instead).
registerConstraintCodes({ fk_idempotency_keys_user: 'USER_NOT_FOUND' });

export interface StoredResponse {
  request_hash: string;
  status_code: number | null;
  response: unknown;
}

/** Keys are kept this long; an older key may be used again for a new request. */
export const IDEMPOTENCY_TTL_HOURS = 24;

@Injectable()
export class IdempotencyRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Claims a key for a request: true when this call owns it now; false when a row exists (finished or
   * in progress), which the caller then reads. Expired keys are reclaimed.
   */
  async claim(userId: string, key: string, requestHash: string): Promise<boolean> {
    await this.dataSource.query(
      `DELETE FROM idempotency_keys WHERE user_id = $1 AND key = $2
         AND created_at < now() - make_interval(hours => $3)`,
      [userId, key, IDEMPOTENCY_TTL_HOURS],
    );
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO idempotency_keys (user_id, key, request_hash) VALUES ($1, $2, $3)
       ON CONFLICT DO NOTHING RETURNING 1`,
      [userId, key, requestHash],
    );
    return rows.length > 0;
  }

  async find(userId: string, key: string): Promise<StoredResponse | undefined> {
    const rows: StoredResponse[] = await this.dataSource.query(
      'SELECT request_hash, status_code, response FROM idempotency_keys WHERE user_id = $1 AND key = $2',
      [userId, key],
    );
    return rows[0];
  }

  async complete(userId: string, key: string, statusCode: number, response: unknown): Promise<void> {
    await this.dataSource.query(
      'UPDATE idempotency_keys SET status_code = $3, response = $4 WHERE user_id = $1 AND key = $2',
      [userId, key, statusCode, JSON.stringify(response ?? null)],
    );
  }

  /** A failed request frees its key, so the client can retry it. */
  async release(userId: string, key: string): Promise<void> {
    await this.dataSource.query(
      'DELETE FROM idempotency_keys WHERE user_id = $1 AND key = $2 AND status_code IS NULL',
      [userId, key],
    );
  }
}
