// SQLite files for tests, written through knex (better-sqlite3).
import knexFactory from 'knex';

/** Runs `;`-terminated statements (one per line end) against a SQLite file, created when missing. */
export async function execSqlite(path: string, sql: string): Promise<void> {
  const knex = knexFactory({
    client: 'better-sqlite3',
    connection: { filename: path },
    useNullAsDefault: true,
  });
  try {
    await knex.transaction(async (trx) => {
      for (const statement of sql.split(/;\s*\n/).filter((s) => s.trim() !== '' && !/^\s*PRAGMA/i.test(s))) {
        await trx.raw(statement);
      }
    });
  } finally {
    await knex.destroy();
  }
}
