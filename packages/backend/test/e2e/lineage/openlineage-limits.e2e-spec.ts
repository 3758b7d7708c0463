// OpenLineage intake at scale (issue 22, ADR 0022 amendment): unknown datasets are reported once each,
// never once per input × output pair; the work of one event is bounded (AIDE_OPENLINEAGE_MAX_DATASET_PAIRS
// registered pairs, AIDE_OPENLINEAGE_MAX_FIELD_EDGES column-lineage edges), beyond which the event is
// refused whole with 413 OPENLINEAGE_EVENT_TOO_LARGE; the pairs within the bound are linked in a fixed
// number of statements. Timings are measured by `pnpm bench openlineage`, not here.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API, flavorByCode, type Row, seedReference, sqlCounter } from '../../helpers/catalogue.js';
import { createSystem, ok } from '../../helpers/factories.js';
import { createTestContext, expectEnvelope, type TestContext } from '../../helpers/test-app.js';

const NS = 'postgres://ol-limits.example.com:5432';
const K = 150;
const MAX_PAIRS = K * K;
const MAX_EDGES = 4;
let ctx: TestContext;
let systemId: string;

const post = (event: unknown) =>
  ctx.request('POST', `${API}/lineage/openlineage`, { token: ctx.userToken, body: event });

const names = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);

function event(
  inputs: readonly string[],
  outputs: readonly (string | { name: string; facets: Record<string, unknown> })[],
  runId = randomUUID(),
) {
  return {
    eventType: 'COMPLETE',
    eventTime: '2026-12-20T10:00:00Z',
    producer: 'https://example.com/limits',
    run: { runId },
    job: { namespace: 'limits', name: 'job' },
    inputs: inputs.map((name) => ({ namespace: NS, name })),
    outputs: outputs.map((o) =>
      typeof o === 'string' ? { namespace: NS, name: o } : { namespace: NS, ...o },
    ),
  };
}

/**
 * `n` rdbms datasets `public.<prefix><i>`, each with a published version of one integer column `id`
 * (written in SQL: a few statements instead of hundreds of requests; what the intake reads is the same).
 */
async function registerDatasets(prefix: string, n: number): Promise<void> {
  const q = (sql: string, params: unknown[]) => ctx.dataSource.query(sql, params);
  const like = `public.${prefix}%`;
  await q(
    `INSERT INTO datasets (system_id, object_name, kind, layer)
     SELECT $1, 'public.' || $2 || i, 'rdbms', 'raw' FROM generate_series(1, $3) i`,
    [systemId, prefix, n],
  );
  await q(
    `INSERT INTO dataset_schemas (dataset_id, version_num)
     SELECT id, 1 FROM datasets WHERE system_id = $1 AND object_name LIKE $2`,
    [systemId, like],
  );
  await q(
    `INSERT INTO fields (dataset_id, name, origin)
     SELECT id, 'id', 'mapped' FROM datasets WHERE system_id = $1 AND object_name LIKE $2`,
    [systemId, like],
  );
  await q(
    `WITH f AS (
       SELECT f.id AS field_id, s.id AS schema_id FROM fields f
       JOIN datasets d ON d.id = f.dataset_id JOIN dataset_schemas s ON s.dataset_id = d.id
       WHERE d.system_id = $1 AND d.object_name LIKE $2),
     ti AS (
       INSERT INTO type_instances (data_type_id, note)
       SELECT dt.id, f.field_id::text FROM f, data_types dt JOIN system_flavors fl ON fl.id = dt.system_flavor_id
       WHERE fl.code = 'postgres14' AND dt.code = 'integer'
       RETURNING id, note)
     INSERT INTO field_bindings (field_id, dataset_schema_id, position, type_instance_id)
     SELECT f.field_id, f.schema_id, 0, ti.id FROM f JOIN ti ON ti.note = f.field_id::text`,
    [systemId, like],
  );
  await q(`UPDATE type_instances SET note = NULL WHERE note IS NOT NULL`, []);
}

const eventRows = async (runId: string): Promise<number> =>
  (
    await ctx.dataSource.query('SELECT count(*)::int AS n FROM openlineage_events WHERE run_id = $1', [runId])
  )[0].n;

beforeAll(async () => {
  ctx = await createTestContext({
    AIDE_OPENLINEAGE_MAX_DATASET_PAIRS: String(MAX_PAIRS),
    AIDE_OPENLINEAGE_MAX_FIELD_EDGES: String(MAX_EDGES),
  });
  await seedReference(ctx);
  const system = await createSystem(ctx, (await flavorByCode(ctx, 'postgres14')).id, {
    extra: { openlineage_namespace: NS },
  });
  systemId = system.id;
  await registerDatasets('src_', K + 1);
  await registerDatasets('dst_', K);
});
afterAll(async () => {
  await ctx.close();
});

describe('OpenLineage intake: unknown datasets', () => {
  it('answers 1,000 unknown inputs × 1,000 unknown outputs with each dataset once, not each pair', async () => {
    const big = event(names('in.t', 1000), names('out.t', 1000));
    const r = await post(big);
    expect(r.status).toBe(201);
    const body = r.body;
    expect(body.datasets).toHaveLength(2000);
    expect(body.unknown_datasets).toHaveLength(2000);
    expect(body.unknown_datasets[0]).toEqual({ role: 'input', namespace: NS, name: 'in.t1' });
    expect(body.skipped).toEqual([]);
    expect(body.dataset_links).toEqual([]);
    // Today's main answered one `skipped` entry per pair: 1,000,000 of them (about 200 MB).
    expect(JSON.stringify(body).length).toBeLessThan(1_000_000);
    const [{ bytes }] = await ctx.dataSource.query(
      'SELECT octet_length(result::text) AS bytes FROM openlineage_events WHERE run_id = $1',
      [big.run.runId],
    );
    expect(bytes).toBeLessThan(1_000_000);
    // A replay gets the stored (small) answer.
    const again = await post(big);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...body, duplicate: true });
  });

  it('links the known datasets of an event and reports its unknown ones once, whatever their pairs', async () => {
    const r = ok(
      await post(event(['public.src_1', 'public.src_2', 'nowhere.a'], ['public.dst_1', 'nowhere.b'])),
      201,
    );
    expect(r.unknown_datasets.map((d: Row) => [d.role, d.name])).toEqual([
      ['input', 'nowhere.a'],
      ['output', 'nowhere.b'],
    ]);
    expect(r.dataset_links.map((l: Row) => l.status)).toEqual(['created', 'created']);
    expect(r.skipped).toEqual([]);
  });

  it('reports a dataset both read and written once, however many names it is given', async () => {
    const aliases = ['public.src_3', 'a.public.src_3', 'b.public.src_3'];
    const r = ok(await post(event(aliases, aliases)), 201);
    expect(r.datasets.every((d: Row) => d.status === 'matched')).toBe(true);
    expect(r.skipped.map((s: Row) => [s.reason, s.source.name, s.target.name])).toEqual([
      ['SELF_LINK', 'public.src_3', 'public.src_3'],
    ]);
    expect(r.dataset_links).toEqual([]);
  });
});

describe('OpenLineage intake: bounded work per event', () => {
  it(`links ${K} × ${K} registered datasets (${MAX_PAIRS} pairs) in a fixed number of statements`, async () => {
    const counter = sqlCounter(ctx);
    counter.start();
    const small = ok(await post(event(names('public.src_', 2), names('public.dst_', 2).slice(1))), 201);
    const smallStatements = counter.stop().length;
    expect(small.dataset_links).toHaveLength(2);

    const linksToDst = async (): Promise<number> =>
      (
        await ctx.dataSource.query(
          `SELECT count(*)::int AS n FROM dataset_links l JOIN datasets d ON d.id = l.target_dataset_id
           WHERE l.deleted_at IS NULL AND d.system_id = $1 AND d.object_name LIKE 'public.dst%'
             AND l.note = 'OpenLineage: limits job'`,
          [systemId],
        )
      )[0].n;
    const before = await linksToDst();
    counter.start();
    const r = ok(await post(event(names('public.src_', K), names('public.dst_', K))), 201);
    const statements = counter.stop().length;
    expect(r.dataset_links).toHaveLength(MAX_PAIRS);
    expect(r.dataset_links.filter((l: Row) => l.status === 'created')).toHaveLength(MAX_PAIRS - before);
    expect(statements).toBe(smallStatements);
    expect(await linksToDst()).toBe(MAX_PAIRS);

    const confirmed = ok(await post(event(names('public.src_', K), names('public.dst_', K))), 201);
    expect(new Set(confirmed.dataset_links.map((l: Row) => l.status))).toEqual(new Set(['confirmed']));
  });

  it('refuses more registered pairs than AIDE_OPENLINEAGE_MAX_DATASET_PAIRS with 413, recording nothing', async () => {
    const tooMany = event(names('public.src_', K + 1), names('public.dst_', K));
    const envelope = expectEnvelope(await post(tooMany), 413, 'OPENLINEAGE_EVENT_TOO_LARGE');
    expect(envelope.details).toEqual({
      limit: 'AIDE_OPENLINEAGE_MAX_DATASET_PAIRS',
      max: MAX_PAIRS,
      count: (K + 1) * K,
    });
    expect(await eventRows(tooMany.run.runId)).toBe(0);
    const [{ n }] = await ctx.dataSource.query(
      `SELECT count(*)::int AS n FROM dataset_links l JOIN datasets d ON d.id = l.source_dataset_id
       WHERE d.object_name = $1`,
      [`public.src_${K + 1}`],
    );
    expect(n).toBe(0);
    // Unknown datasets are no pairs: the same event with its extra input unregistered is taken.
    const withUnknown = event([...names('public.src_', K), 'nowhere.extra'], names('public.dst_', K));
    const taken = ok(await post(withUnknown), 201);
    expect(taken.unknown_datasets).toEqual([{ role: 'input', namespace: NS, name: 'nowhere.extra' }]);
    expect(taken.dataset_links).toHaveLength(MAX_PAIRS);
  });

  it('refuses more column-lineage edges than AIDE_OPENLINEAGE_MAX_FIELD_EDGES with 413, recording nothing', async () => {
    const withEdges = (edges: number) =>
      event(
        ['public.src_1'],
        [
          {
            name: 'public.dst_2',
            facets: {
              columnLineage: {
                fields: {
                  id: {
                    inputFields: Array.from({ length: edges }, () => ({
                      namespace: NS,
                      name: 'public.src_1',
                      field: 'id',
                    })),
                  },
                },
              },
            },
          },
        ],
      );
    const tooMany = withEdges(MAX_EDGES + 1);
    const envelope = expectEnvelope(await post(tooMany), 413, 'OPENLINEAGE_EVENT_TOO_LARGE');
    expect(envelope.details).toEqual({
      limit: 'AIDE_OPENLINEAGE_MAX_FIELD_EDGES',
      max: MAX_EDGES,
      count: MAX_EDGES + 1,
    });
    expect(await eventRows(tooMany.run.runId)).toBe(0);
    const taken = ok(await post(withEdges(MAX_EDGES)), 201);
    expect(taken.field_links.map((f: Row) => [f.source_field, f.target_field])).toEqual([['id', 'id']]);
  });
});
