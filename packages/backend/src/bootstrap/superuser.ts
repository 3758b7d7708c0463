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

/** What an operator runs to make an existing account an active superuser again (never done on start). */
function restoreStatement(email: string): string {
  return `UPDATE users SET is_superuser = true, is_active = true WHERE lower(email) = '${email.replaceAll("'", "''")}';`;
}

/**
 * Creates the first superuser when missing. An existing account is never re-passworded or changed
 * on restart (DESIGN §2 item 3). Without configured credentials a superuser is generated only when
 * the database has no active one. When an account exists but no active superuser does (demoted before
 * the API refused it, or changed in SQL), the start goes on and says how to restore it.
 */
export async function ensureSuperuser(
  dataSource: DataSource,
  config: ResolvedConfig,
  logger: Logger,
): Promise<SuperuserResult | undefined> {
  const configured = config.superuserEmail;
  const activeRows: { n: number }[] = await dataSource.query(
    'SELECT count(*)::int AS n FROM users WHERE is_superuser AND is_active',
  );
  const noActiveSuperuser = (activeRows[0]?.n ?? 0) === 0;
  const warnStuck = (email: string) =>
    logger.error(
      { email, restore: restoreStatement(email) },
      `no active superuser: the account ${email} exists but is not an active superuser, and start-up ` +
        'never changes an existing account. Restore it with the SQL statement in "restore" (run against ' +
        'the database; the password stays as it is), or set AIDE_SUPERUSER_EMAIL to a new address.',
    );
  if (configured) {
    const rows: unknown[] = await dataSource.query('SELECT 1 FROM users WHERE lower(email) = $1', [
      configured,
    ]);
    if (rows.length > 0) {
      if (noActiveSuperuser) warnStuck(configured);
      return { email: configured, created: false };
    }
  } else if (!noActiveSuperuser) {
    return undefined;
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
  if (inserted.length === 0) {
    if (noActiveSuperuser) warnStuck(email);
    return { email, created: false };
  }
  logger.info({ email }, 'superuser created');
  return generated ? { email, generatedPassword: generated, created: true } : { email, created: true };
}
