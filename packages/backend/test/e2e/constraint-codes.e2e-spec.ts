import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ERROR_CATALOGUE } from '@aide/schemas';
import { registeredConstraintCodes } from '../../src/common/errors/db-error.js';
import { createTestContext, type TestContext } from '../helpers/test-app.js';

// Every unique constraint, unique index and foreign key of the migrated database can be violated by a
// request that races past a service's pre-check: each must answer with its own catalogue code, so each
// is registered (registerConstraintCodes in the owning module). Check constraints answer
// VALIDATION_ERROR by SQLSTATE, and primary keys are generated uuids: neither needs a code.
describe('constraint names map to catalogue codes', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('registers every unique constraint, unique index and foreign key, and nothing else', async () => {
    const rows: { name: string }[] = await ctx.dataSource.query(`
      SELECT c.conname AS name
        FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
       WHERE n.nspname = 'public' AND c.contype IN ('u', 'f', 'x')
      UNION
      SELECT i.relname AS name
        FROM pg_index x
        JOIN pg_class i ON i.oid = x.indexrelid
        JOIN pg_class t ON t.oid = x.indrelid
        JOIN pg_namespace n ON n.oid = t.relnamespace
       WHERE n.nspname = 'public' AND x.indisunique AND NOT x.indisprimary
         AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)
         AND t.relname NOT IN ('migrations', 'typeorm_metadata')`);
    const inDatabase = rows.map((r) => r.name).sort();
    const registered = [...registeredConstraintCodes().keys()].sort();
    expect({ missing: inDatabase.filter((n) => !registered.includes(n)) }).toEqual({ missing: [] });
    expect({ unknown: registered.filter((n) => !inDatabase.includes(n)) }).toEqual({ unknown: [] });
    for (const code of registeredConstraintCodes().values())
      expect(Object.keys(ERROR_CATALOGUE)).toContain(code);
  });
});
