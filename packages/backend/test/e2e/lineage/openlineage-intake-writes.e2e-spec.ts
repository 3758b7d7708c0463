// The set-based intake (ADR 0056): an event of a run already recorded confirms its links and field
// links without writing them again, in a fixed number of statements prepared once per connection; job
// and run facets are merged in SQL as in JS (newer wins, `_deleted` removes, an older event only fills
// in); a parent run is found whatever the case of its id; the plan mode and the prepared statements of
// the intake's transaction behave as TypeORM's own queries do (answers, errors).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { EntityManager } from 'typeorm';
import { API, type Row, sqlCounter } from '../../helpers/catalogue.js';
import { ok, unique } from '../../helpers/factories.js';
import { openLineageContext, registeredTable } from '../../helpers/lineage.js';
import { expectEnvelope, type TestContext } from '../../helpers/test-app.js';
import { mapDatabaseError } from '../../../src/common/errors/db-error.js';
import { preparingQueries } from '../../../src/database/prepared-query.js';
import { Transactions } from '../../../src/database/transactions.js';

const NS = 'postgres://ol-writes.example.com:5432';
const PRODUCER = 'https://github.com/OpenLineage/OpenLineage/tree/1.26.0/integration/airflow';
let ctx: TestContext;
let system: Row;

const post = (event: unknown) => ctx.request('POST', `${API}/lineage`, { token: ctx.userToken, body: event });
const get = (path: string) => ctx.request('GET', `${API}/${path}`, { token: ctx.userToken });

const table = (name: string) =>
  registeredTable(ctx, system.id, name, [
    ['id', 'integer'],
    ['amount', 'integer'],
  ]);

interface EventOptions {
  job: string;
  runId: string;
  eventType: string;
  time: string;
  inputs: string[];
  outputs: string[];
  runFacets?: Record<string, unknown>;
  jobFacets?: Record<string, unknown>;
}

const schema = { _producer: PRODUCER, _schemaURL: 'x', fields: [{ name: 'id', type: 'integer' }] };

function event(o: EventOptions): Record<string, unknown> {
  return {
    eventType: o.eventType,
    eventTime: o.time,
    producer: PRODUCER,
    run: { runId: o.runId, ...(o.runFacets ? { facets: o.runFacets } : {}) },
    job: { namespace: 'airflow', name: o.job, ...(o.jobFacets ? { facets: o.jobFacets } : {}) },
    inputs: o.inputs.map((name) => ({ namespace: NS, name, facets: { schema } })),
    outputs: o.outputs.map((name) => ({
      namespace: NS,
      name,
      facets: {
        schema,
        columnLineage: {
          _producer: PRODUCER,
          _schemaURL: 'x',
          fields: {
            id: { inputFields: o.inputs.map((input) => ({ namespace: NS, name: input, field: 'id' })) },
            amount: {
              inputFields: [{ namespace: NS, name: o.inputs[0], field: 'amount' }],
              transformationType: 'AGGREGATION',
            },
          },
        },
      },
    })),
  };
}

/** Posts the event, taken (201): its answer. */
const taken = async (o: EventOptions) => ok(await post(event(o)), 201);

const at = (minute: number) => `2026-12-07T11:${String(minute).padStart(2, '0')}:00.000Z`;

beforeAll(async () => {
  ({ ctx, system } = await openLineageContext(NS));
});
afterAll(async () => {
  await ctx.close();
});

describe('an event of a run already recorded', () => {
  it('confirms links and field links without writing them again, in a fixed number of statements', async () => {
    const names = ['writes.a', 'writes.b', 'writes.c', 'writes.out1', 'writes.out2'];
    for (const name of names) await table(name);
    const job = unique('writes_job');
    const o = { job, inputs: names.slice(0, 3), outputs: names.slice(3) };
    const runId = randomUUID();
    const start = await taken({ ...o, runId, eventType: 'START', time: at(0) });
    expect(start.dataset_links).toHaveLength(6);
    expect(new Set(start.dataset_links.map((l: Row) => l.status))).toEqual(new Set(['created']));
    expect(start.field_links).toHaveLength(8);
    expect(new Set(start.field_links.map((l: Row) => l.status))).toEqual(new Set(['created']));
    const stamps = async () =>
      ctx.dataSource.query(
        `SELECT l.id, l.row_version, l.updated_at, f.id AS field_link_id, f.row_version AS f_version,
                f.updated_at AS f_updated
         FROM dataset_links l LEFT JOIN field_links f ON f.dataset_link_id = l.id
         WHERE l.note = $1 ORDER BY l.id, f.id`,
        [`OpenLineage: airflow ${job}`],
      );
    const before = await stamps();
    expect(before).toHaveLength(8);

    const counter = sqlCounter(ctx);
    counter.start();
    const complete = await taken({ ...o, runId, eventType: 'COMPLETE', time: at(1) });
    const statements = counter.stop();
    expect(new Set(complete.dataset_links.map((l: Row) => l.status))).toEqual(new Set(['confirmed']));
    expect(complete.dataset_links.map((l: Row) => l.dataset_link_id).sort()).toEqual(
      start.dataset_links.map((l: Row) => l.dataset_link_id).sort(),
    );
    expect(new Set(complete.field_links.map((l: Row) => l.status))).toEqual(new Set(['confirmed']));
    expect(await stamps()).toEqual(before);
    // The request's own (API key or token check) and the intake's: begin; plan mode; claim; systems;
    // datasets; versions; links; fields; observed schemas; job and run; the rest of the run; its
    // version; the answer; commit. No field is locked, no link or field link written.
    expect(statements.some((s) => /FOR SHARE\s*$/.test(s.trim()) && s.includes('FROM fields'))).toBe(false);
    expect(statements.some((s) => /INSERT INTO field_links/.test(s))).toBe(false);
    expect(statements.length).toBeLessThanOrEqual(16);

    // The next run of the job: the same, and the version of the first run is run again.
    const next = randomUUID();
    counter.start();
    await taken({ ...o, runId: next, eventType: 'START', time: at(5) });
    await taken({ ...o, runId: next, eventType: 'COMPLETE', time: at(6) });
    expect(counter.stop().length).toBeLessThanOrEqual(32);
    expect(await stamps()).toEqual(before);
    const first = ok(await get(`lineage/runs/${runId}`));
    expect(ok(await get(`lineage/runs/${next}`)).job_version).toBe(first.job_version);
  });

  it('creates only the edges it lacks, and answers the others confirmed', async () => {
    for (const name of ['more.a', 'more.b', 'more.out']) await table(name);
    const job = unique('more_job');
    const runId = randomUUID();
    const one = { job, inputs: ['more.a'], outputs: ['more.out'] };
    await taken({ ...one, runId, eventType: 'START', time: at(0) });
    const both = { ...one, inputs: ['more.a', 'more.b'] };
    const r = await taken({ ...both, runId, eventType: 'COMPLETE', time: at(1) });
    expect(r.dataset_links.map((l: Row) => l.status).sort()).toEqual(['confirmed', 'created']);
    const statusOf = (source: string, field: string) =>
      r.field_links.find(
        (l: Row) =>
          l.source_field === field &&
          r.dataset_links.find((d: Row) => d.dataset_link_id === l.dataset_link_id)?.status ===
            (source === 'more.a' ? 'confirmed' : 'created'),
      )?.status;
    expect(statusOf('more.a', 'id')).toBe('confirmed');
    expect(statusOf('more.a', 'amount')).toBe('confirmed');
    expect(statusOf('more.b', 'id')).toBe('created');
  });
});

describe('facets merged in SQL', () => {
  const facet = (extra: Record<string, unknown>) => ({ _producer: PRODUCER, _schemaURL: 'x', ...extra });

  it("a job's newer facet replaces, `_deleted` removes, an older event only fills in", async () => {
    await table('facets.in');
    await table('facets.out');
    const job = unique('facets_job');
    const o = { job, inputs: ['facets.in'], outputs: ['facets.out'] };
    const base = {
      documentation: facet({ description: 'v1' }),
      sql: facet({ query: 'SELECT 1' }),
      ownership: facet({ owners: [{ name: 'team:a' }] }),
    };
    await taken({ ...o, runId: randomUUID(), eventType: 'COMPLETE', time: at(10), jobFacets: base });
    const newer = { documentation: facet({ description: 'v2' }), ownership: facet({ _deleted: true }) };
    const run = await taken({
      ...o,
      runId: randomUUID(),
      eventType: 'COMPLETE',
      time: at(20),
      jobFacets: newer,
    });
    const older = {
      documentation: facet({ description: 'old' }),
      jobType: facet({ processingType: 'BATCH', integration: 'AIRFLOW', jobType: 'TASK' }),
    };
    await taken({ ...o, runId: randomUUID(), eventType: 'COMPLETE', time: at(5), jobFacets: older });
    const runBody = ok(await get(`lineage/runs/${run.run_id}`));
    const [stored] = await ctx.dataSource.query('SELECT facets FROM lineage_jobs WHERE id = $1', [
      runBody.job.id,
    ]);
    expect(Object.keys(stored.facets).sort()).toEqual(['documentation', 'jobType', 'sql']);
    expect(stored.facets.documentation.description).toBe('v2');
    expect(ok(await get(`lineage/jobs/${runBody.job.id}`))).toMatchObject({
      description: 'v2',
      sql: 'SELECT 1',
      ownership: null,
      type: { processing_type: 'BATCH' },
    });
  });

  it("a run's facets merge likewise; a parent is found by its id in any case", async () => {
    await table('runs.in');
    await table('runs.out');
    const o = { job: unique('child_job'), inputs: ['runs.in'], outputs: ['runs.out'] };
    const parentId = randomUUID();
    const childId = randomUUID();
    const parent = (runId: string) => facet({ run: { runId }, job: { namespace: 'airflow', name: 'dag' } });
    await taken({
      job: unique('parent_job'),
      runId: parentId,
      eventType: 'START',
      time: at(0),
      inputs: [],
      outputs: [],
    });
    await taken({
      ...o,
      runId: childId,
      eventType: 'START',
      time: at(1),
      runFacets: { parent: parent(parentId.toUpperCase()), custom: facet({ a: 1 }) },
    });
    await taken({
      ...o,
      runId: childId,
      eventType: 'COMPLETE',
      time: at(2),
      runFacets: { custom: facet({ _deleted: true }) },
    });
    const [row] = await ctx.dataSource.query(
      `SELECT c.facets, c.parent_run_id, p.run_id AS parent FROM lineage_runs c
       LEFT JOIN lineage_runs p ON p.id = c.parent_id WHERE c.run_id = $1`,
      [childId],
    );
    expect(Object.keys(row.facets).sort()).toEqual(['parent']);
    expect(row.parent_run_id).toBe(parentId);
    expect(row.parent).toBe(parentId);
    // A parent id that is not a UUID is kept as sent, and links no run.
    const other = randomUUID();
    await taken({
      ...o,
      runId: other,
      eventType: 'START',
      time: at(3),
      runFacets: { parent: parent('not-a-uuid') },
    });
    const [odd] = await ctx.dataSource.query(
      'SELECT parent_run_id, parent_id FROM lineage_runs WHERE run_id = $1',
      [other],
    );
    expect(odd).toEqual({ parent_run_id: 'not-a-uuid', parent_id: null });
  });
});

describe("the intake's transaction", () => {
  it('plans generically and reads committed; other transactions keep the defaults', async () => {
    const tx = new Transactions(ctx.dataSource);
    const settings = (m: EntityManager) =>
      m.query(
        `SELECT current_setting('plan_cache_mode') AS mode, current_setting('transaction_isolation') AS iso`,
      );
    expect(await tx.run(settings, 'READ COMMITTED', { genericPlans: true })).toEqual([
      { mode: 'force_generic_plan', iso: 'read committed' },
    ]);
    expect(await tx.run(settings, 'REPEATABLE READ', { genericPlans: true })).toEqual([
      { mode: 'force_generic_plan', iso: 'repeatable read' },
    ]);
    expect(await tx.run(settings)).toEqual([{ mode: 'auto', iso: 'read committed' }]);
  });

  it('answers prepared statements as TypeORM does: rows, [rows, count] for UPDATE, mapped errors', async () => {
    const code = unique('prep');
    await ctx.dataSource
      .transaction(async (tm) => {
        const m = preparingQueries(tm);
        expect(m).not.toBe(tm);
        const inserted = await m.query(
          `INSERT INTO lineage_jobs (namespace, name, facets_time) VALUES ($1, $2, now()) RETURNING name`,
          ['prepared', code],
        );
        expect(inserted).toEqual([{ name: code }]);
        const updated = await m.query(`UPDATE lineage_jobs SET facets = $2 WHERE name = $1 RETURNING name`, [
          code,
          { a: 1 },
        ]);
        expect(updated).toEqual([[{ name: code }], 1]);
        // The same text again runs the statement prepared on this connection.
        expect(await m.query('SELECT facets FROM lineage_jobs WHERE name = $1', [code])).toEqual([
          { facets: { a: 1 } },
        ]);
        expect(await m.query('SELECT facets FROM lineage_jobs WHERE name = $1', [code])).toEqual([
          { facets: { a: 1 } },
        ]);
        const failure = await m
          .query(`INSERT INTO lineage_jobs (namespace, name, facets_time) VALUES ($1, $2, now())`, [
            'prepared',
            code,
          ])
          .catch((e: unknown) => e);
        expect(mapDatabaseError(failure)?.code).toBe('VERSION_CONFLICT');
        throw new Error('rolled back');
      })
      .catch((e: Error) => expect(e.message).toBe('rolled back'));
    expect(await ctx.dataSource.query('SELECT 1 FROM lineage_jobs WHERE name = $1', [code])).toEqual([]);
  });

  it('answers a malformed event before any statement, and a duplicate from storage', async () => {
    expectEnvelope(await post({ eventTime: 'now', producer: PRODUCER }), 422, 'VALIDATION_ERROR');
    await table('dup.in');
    await table('dup.out');
    const e = event({
      job: unique('dup'),
      runId: randomUUID(),
      eventType: 'START',
      time: at(0),
      inputs: ['dup.in'],
      outputs: ['dup.out'],
    });
    const first = ok(await post(e), 201);
    const again = ok(await post(e), 200);
    expect(again).toEqual({ ...first, duplicate: true });
  });
});
