import { randomBytes } from 'node:crypto';
import { hash } from '@node-rs/bcrypt';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import type { ResolvedConfig } from '../config/config.js';

export interface SuperuserResult {
  email: string;
  /** Set only when the password was generated now: it is shown once and never stored in clear. */
  generatedPassword?: string;
  created: boolean;
}

/**
 * Creates the first superuser when missing. An existing account is never re-passworded or changed
 * on restart (DESIGN §2 item 3). Without configured credentials a superuser is generated only when
 * the database has none.
 */
export async function ensureSuperuser(
  dataSource: DataSource,
  config: ResolvedConfig,
  logger: Logger,
): Promise<SuperuserResult | undefined> {
  const configured = config.superuserEmail;
  if (configured) {
    const rows: unknown[] = await dataSource.query('SELECT 1 FROM users WHERE lower(email) = $1', [
      configured,
    ]);
    if (rows.length > 0) return { email: configured, created: false };
  } else {
    const rows: unknown[] = await dataSource.query('SELECT 1 FROM users WHERE is_superuser LIMIT 1');
    if (rows.length > 0) return undefined;
  }
  const email = configured ?? 'admin@aide.local';
  const generated = configured ? undefined : randomBytes(18).toString('base64url');
  const password = config.superuserPassword ?? generated ?? '';
  const hashed = await hash(password, config.bcryptCost);
  const inserted: unknown[] = await dataSource.query(
    `INSERT INTO users (email, hashed_password, full_name, is_active, is_superuser, user_type)
     VALUES ($1, $2, 'Superuser', true, true, 'regular') ON CONFLICT DO NOTHING RETURNING id`,
    [email, hashed],
  );
  if (inserted.length === 0) return { email, created: false };
  logger.info({ email }, 'superuser created');
  return generated ? { email, generatedPassword: generated, created: true } : { email, created: true };
}
