import type { EntityManager } from 'typeorm';

/**
 * Rows of `table` whose foreign key `column` is `id` — the parent's side of a delete guard
 * (ADR 0026): a module asks about the rows that reference its own through the database, by the
 * referencing table's name, and never imports the referencing module (which depends on it).
 * `activeOnly` leaves out soft-deleted rows. Table and column are constants of the caller, never input.
 */
export async function countReferencing(
  manager: EntityManager,
  table: string,
  column: string,
  id: string,
  activeOnly: boolean,
): Promise<number> {
  const rows: { n: number }[] = await manager.query(
    `SELECT count(*)::int AS n FROM ${table} WHERE ${column} = $1${activeOnly ? ' AND deleted_at IS NULL' : ''}`,
    [id],
  );
  return rows[0]?.n ?? 0;
}
