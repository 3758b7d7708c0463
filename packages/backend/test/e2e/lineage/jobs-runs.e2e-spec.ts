// OpenLineage jobs, job versions and runs (issue 27 §3, ADR 0053) recorded by the intake and read over
// HTTP: the run state machine (in and out of order), times, errors, parents, versions when inputs change,
// JobEvents, the raw events of a run, a dataset's history by run, and repeated events.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API, createDataset, flavorByCode, type Row, seedReference } from '../../helpers/catalogue.js';
import { Housekeeping } from '../../../src/modules/housekeeping/housekeeping.service.js';
import { createSystem, ok, UNKNOWN_ID, unique } from '../../helpers/factories.js';
import { publishVersion } from '../../helpers/lineage.js';
import { createTestContext, expectEnvelope, type TestContext } from '../../helpers/test-app.js';

const NS = 'postgres://ol-runs.example.com:5432';
const SPEC = 'https://openlineage.io/spec/2-0-2/OpenLineage.json';
const PRODUCER = 'https://github.com/OpenLineage/OpenLineage/tree/1.24.2/integration/spark';
let ctx: TestContext;
let system: Row;

/** A registered table `<schema>.<table>` of the test system with one published column. */
async function table(name: string): Promise<Row> {
  const [schema, tableName] = name.split('.') as [string, string];
  const dataset = await createDataset(ctx, system.id, 'rdbms', {
    object_name: name,
    schema_name: schema,
    table_name: tableName,
    layer: schema === 'src' ? 'source' : 'raw',
  });
  await publishVersion(ctx, dataset.id, [['id', 'integer']]);
  return dataset;
}

const post = (event: unknown) => ctx.request('POST', `${API}/lineage`, { token: ctx.userToken, body: event });
const get = (path: string) => ctx.request('GET', `${API}/${path}`, { token: ctx.userToken });

interface EventOptions {
  job: string;
  runId: string;
  time: string;
  inputs?: (string | Record<string, unknown>)[];
  outputs?: (string | Record<string, unknown>)[];
  runFacets?: Record<string, unknown>;
  jobFacets?: Record<string, unknown>;
  jobNamespace?: string;
}

const datasetOf = (d: string | Record<string, unknown>) =>
  typeof d === 'string' ? { namespace: NS, name: d } : { namespace: NS, ...d };

function runEvent(eventType: string, o: EventOptions): Record<string, unknown> {
  return {
    eventType,
    eventTime: o.time,
    producer: PRODUCER,
    schemaURL: `${SPEC}#/$defs/RunEvent`,
    run: { runId: o.runId, ...(o.runFacets ? { facets: o.runFacets } : {}) },
    job: {
      namespace: o.jobNamespace ?? 'spark',
      name: o.job,
      ...(o.jobFacets ? { facets: o.jobFacets } : {}),
    },
    inputs: (o.inputs ?? []).map(datasetOf),
    outputs: (o.outputs ?? []).map(datasetOf),
  };
}

const at = (minute: number) => `2026-12-07T10:${String(minute).padStart(2, '0')}:00.000Z`;

beforeAll(async () => {
  ctx = await createTestContext();
  await seedReference(ctx);
  system = await createSystem(ctx, (await flavorByCode(ctx, 'postgres14')).id, {
    extra: { openlineage_namespace: NS },
  });
});
afterAll(async () => {
  await ctx.close();
});

describe('runs', () => {
  let src: Row;
  let dst: Row;
  beforeAll(async () => {
    src = await table('src.runs_in');
    dst = await table('dw.runs_out');
  });

  it('START, RUNNING, COMPLETE make one COMPLETED run with its start, end and duration', async () => {
    const job = unique('daily_load');
    const runId = randomUUID();
    const o = { job, runId, inputs: ['src.runs_in', 'src.not_registered'], outputs: ['dw.runs_out'] };
    ok(await post(runEvent('START', { ...o, time: at(0) })), 201);
    const running = ok(await get(`lineage/runs/${runId}`));
    expect(running).toMatchObject({ state: 'RUNNING', started_at: at(0), ended_at: null, duration_ms: null });
    ok(await post(runEvent('RUNNING', { ...o, time: at(1) })), 201);
    ok(await post(runEvent('COMPLETE', { ...o, time: at(5) })), 201);

    const run = ok(await get(`lineage/runs/${runId}`));
    expect(run).toMatchObject({
      run_id: runId,
      job: { namespace: 'spark', name: job },
      state: 'COMPLETED',
      started_at: at(0),
      ended_at: at(5),
      duration_ms: 5 * 60_000,
      job_version: 1,
      first_event_time: at(0),
      last_event_time: at(5),
      parent: null,
      error: null,
    });
    expect(run.inputs.map((d: Row) => [d.name, d.dataset_id])).toEqual([
      ['src.not_registered', null],
      ['src.runs_in', src.id],
    ]);
    expect(run.outputs.map((d: Row) => [d.name, d.dataset_id])).toEqual([['dw.runs_out', dst.id]]);
    // By its AIDE id too: the same run.
    expect(ok(await get(`lineage/runs/${run.id}`))).toEqual(run);

    const jobRow = ok(await get(`lineage/jobs/${run.job.id}`));
    expect(jobRow).toMatchObject({
      namespace: 'spark',
      name: job,
      current_version: 1,
      latest_run: { id: run.id, run_id: runId, state: 'COMPLETED' },
      outputs: [{ namespace: NS, name: 'dw.runs_out', dataset_id: dst.id }],
    });
    expect(jobRow.inputs).toEqual([
      { namespace: NS, name: 'src.not_registered', dataset_id: null },
      { namespace: NS, name: 'src.runs_in', dataset_id: src.id },
    ]);
    const runs = ok(await get(`lineage/jobs/${run.job.id}/runs`));
    expect(runs).toMatchObject({ total: 1, items: [{ id: run.id, state: 'COMPLETED' }] });
  });

  it('FAIL with an errorMessage facet makes a FAILED run with the message', async () => {
    const runId = randomUUID();
    const o = { job: unique('failing'), runId, inputs: ['src.runs_in'], outputs: ['dw.runs_out'] };
    ok(await post(runEvent('START', { ...o, time: at(0) })), 201);
    const errorMessage = {
      _producer: PRODUCER,
      _schemaURL: 'https://openlineage.io/spec/facets/1-0-1/ErrorMessageRunFacet.json',
      message: 'division by zero',
      programmingLanguage: 'python',
      stackTrace: 'Traceback (most recent call last): ...',
    };
    ok(await post(runEvent('FAIL', { ...o, time: at(2), runFacets: { errorMessage } })), 201);
    const run = ok(await get(`lineage/runs/${runId}`));
    expect(run).toMatchObject({
      state: 'FAILED',
      ended_at: at(2),
      duration_ms: 120_000,
      error: {
        message: 'division by zero',
        programming_language: 'python',
        stack_trace: 'Traceback (most recent call last): ...',
      },
    });
    expect(run.facets.errorMessage).toEqual(errorMessage);
    const failed = ok(await get(`lineage/jobs/${run.job.id}/runs?state=FAILED`));
    expect(failed.items.map((r: Row) => r.id)).toEqual([run.id]);
    expect(ok(await get(`lineage/jobs/${run.job.id}/runs?state=COMPLETED`)).total).toBe(0);
  });

  it('a late START does not undo a COMPLETE, and ABORT ends a run as ABORTED', async () => {
    const runId = randomUUID();
    const o = { job: unique('late'), runId, inputs: ['src.runs_in'], outputs: ['dw.runs_out'] };
    ok(await post(runEvent('COMPLETE', { ...o, time: at(9) })), 201);
    ok(await post(runEvent('START', { ...o, time: at(3) })), 201);
    ok(await post(runEvent('RUNNING', { ...o, time: at(4) })), 201);
    expect(ok(await get(`lineage/runs/${runId}`))).toMatchObject({
      state: 'COMPLETED',
      started_at: at(3),
      ended_at: at(9),
      duration_ms: 6 * 60_000,
      first_event_time: at(3),
      last_event_time: at(9),
    });

    const aborted = randomUUID();
    ok(await post(runEvent('START', { ...o, runId: aborted, time: at(0) })), 201);
    ok(await post(runEvent('OTHER', { ...o, runId: aborted, time: at(1) })), 201);
    expect(ok(await get(`lineage/runs/${aborted}`)).state).toBe('RUNNING');
    ok(await post(runEvent('ABORT', { ...o, runId: aborted, time: at(2) })), 201);
    expect(ok(await get(`lineage/runs/${aborted}`)).state).toBe('ABORTED');

    // A run known only by an OTHER event has not started.
    const other = randomUUID();
    ok(await post(runEvent('OTHER', { ...o, runId: other, time: at(1) })), 201);
    expect(ok(await get(`lineage/runs/${other}`))).toMatchObject({ state: 'NEW', started_at: null });
  });

  it('records the nominal time and links a parent run, whichever arrives first', async () => {
    const parentRunId = randomUUID();
    const childRunId = randomUUID();
    const parentJob = unique('dag');
    const parentFacet = {
      _producer: PRODUCER,
      _schemaURL: 'https://openlineage.io/spec/facets/1-0-1/ParentRunFacet.json',
      run: { runId: parentRunId },
      job: { namespace: 'airflow', name: parentJob },
    };
    const nominalTime = {
      _producer: PRODUCER,
      _schemaURL: 'https://openlineage.io/spec/facets/1-0-1/NominalTimeRunFacet.json',
      nominalStartTime: '2026-12-07T00:00:00Z',
      nominalEndTime: '2026-12-08T00:00:00Z',
    };
    // The child first: its parent is known by ids only.
    ok(
      await post(
        runEvent('START', {
          job: `${parentJob}.task`,
          jobNamespace: 'airflow',
          runId: childRunId,
          time: at(1),
          runFacets: { parent: parentFacet, nominalTime },
        }),
      ),
      201,
    );
    const before = ok(await get(`lineage/runs/${childRunId}`));
    expect(before).toMatchObject({
      parent: { run_id: parentRunId, job_namespace: 'airflow', job_name: parentJob, id: null },
      nominal_start_time: '2026-12-07T00:00:00.000Z',
      nominal_end_time: '2026-12-08T00:00:00.000Z',
    });
    ok(
      await post(
        runEvent('START', { job: parentJob, jobNamespace: 'airflow', runId: parentRunId, time: at(0) }),
      ),
      201,
    );
    const parent = ok(await get(`lineage/runs/${parentRunId}`));
    expect(ok(await get(`lineage/runs/${childRunId}`)).parent.id).toBe(parent.id);

    // A child whose parent is known is linked at once.
    const second = randomUUID();
    ok(
      await post(
        runEvent('START', {
          job: `${parentJob}.other_task`,
          jobNamespace: 'airflow',
          runId: second,
          time: at(2),
          runFacets: { parent: parentFacet },
        }),
      ),
      201,
    );
    expect(ok(await get(`lineage/runs/${second}`)).parent.id).toBe(parent.id);
  });
});

describe('job versions and JobEvents', () => {
  beforeAll(async () => {
    await table('src.versions_a');
    await table('src.versions_b');
    await table('dw.versions_out');
  });

  it('a change of inputs makes version 2; the same inputs again run the version they name', async () => {
    const job = unique('versioned');
    const first = randomUUID();
    const second = randomUUID();
    const third = randomUUID();
    const a = { job, inputs: ['src.versions_a'], outputs: ['dw.versions_out'] };
    const ab = { job, inputs: ['src.versions_a', 'src.versions_b'], outputs: ['dw.versions_out'] };
    ok(await post(runEvent('COMPLETE', { ...a, runId: first, time: at(0) })), 201);
    ok(await post(runEvent('COMPLETE', { ...ab, runId: second, time: at(1) })), 201);
    const run2 = ok(await get(`lineage/runs/${second}`));
    expect(run2.job_version).toBe(2);

    const versions = ok(await get(`lineage/jobs/${run2.job.id}/versions`));
    expect(versions.total).toBe(2);
    expect(versions.items.map((v: Row) => [v.version, v.introduced_by_run?.run_id, v.inputs.length])).toEqual(
      [
        [2, second, 2],
        [1, first, 1],
      ],
    );
    expect(ok(await get(`lineage/jobs/${run2.job.id}`))).toMatchObject({ current_version: 2 });

    // Back to the first inputs: version 1 again, no version 3.
    ok(await post(runEvent('COMPLETE', { ...a, runId: third, time: at(2) })), 201);
    expect(ok(await get(`lineage/runs/${third}`)).job_version).toBe(1);
    expect(ok(await get(`lineage/jobs/${run2.job.id}/versions`)).total).toBe(2);
    const job1 = ok(await get(`lineage/jobs/${run2.job.id}`));
    expect(job1).toMatchObject({ current_version: 1, latest_run: { run_id: third } });
    expect(job1.inputs.map((d: Row) => d.name)).toEqual(['src.versions_a']);
  });

  it('a change of the sql facet makes a new version', async () => {
    const job = unique('sql_job');
    const o = { job, inputs: ['src.versions_a'], outputs: ['dw.versions_out'] };
    const sql = (query: string) => ({ sql: { _producer: PRODUCER, _schemaURL: 'x', query } });
    ok(
      await post(
        runEvent('COMPLETE', { ...o, runId: randomUUID(), time: at(0), jobFacets: sql('SELECT 1') }),
      ),
      201,
    );
    const run = randomUUID();
    ok(await post(runEvent('COMPLETE', { ...o, runId: run, time: at(1), jobFacets: sql('SELECT 2') })), 201);
    const body = ok(await get(`lineage/runs/${run}`));
    expect(body.job_version).toBe(2);
    const versions = ok(await get(`lineage/jobs/${body.job.id}/versions`));
    expect(versions.items.map((v: Row) => v.sql)).toEqual(['SELECT 2', 'SELECT 1']);
  });

  it('a JobEvent updates a job and its version without a run; a DatasetEvent makes no job', async () => {
    const name = unique('declared');
    const facets = {
      jobType: {
        _producer: PRODUCER,
        _schemaURL: 'x',
        processingType: 'BATCH',
        integration: 'DBT',
        jobType: 'MODEL',
      },
      sourceCodeLocation: {
        _producer: PRODUCER,
        _schemaURL: 'x',
        type: 'git',
        url: 'https://git.example.com/repo',
      },
      sql: { _producer: PRODUCER, _schemaURL: 'x', query: 'INSERT INTO out SELECT * FROM a' },
      documentation: { _producer: PRODUCER, _schemaURL: 'x', description: 'Loads the output' },
      ownership: { _producer: PRODUCER, _schemaURL: 'x', owners: [{ name: 'team:data' }] },
    };
    const jobEvent = {
      eventTime: at(0),
      producer: PRODUCER,
      schemaURL: `${SPEC}#/$defs/JobEvent`,
      job: { namespace: 'dbt', name, facets },
      inputs: [{ namespace: NS, name: 'src.versions_a' }],
      outputs: [{ namespace: NS, name: 'dw.versions_out' }],
    };
    ok(await post(jobEvent), 201);
    const page = ok(await get(`lineage/jobs?namespace=dbt&name=${name}`));
    expect(page.total).toBe(1);
    const job = page.items[0];
    expect(job).toMatchObject({
      type: { processing_type: 'BATCH', integration: 'DBT', job_type: 'MODEL' },
      source_code_location: facets.sourceCodeLocation,
      sql: 'INSERT INTO out SELECT * FROM a',
      description: 'Loads the output',
      ownership: facets.ownership,
      current_version: 1,
      latest_run: null,
      inputs: [{ name: 'src.versions_a' }],
      outputs: [{ name: 'dw.versions_out' }],
    });
    expect(ok(await get(`lineage/jobs/${job.id}/runs`)).total).toBe(0);
    const versions = ok(await get(`lineage/jobs/${job.id}/versions`));
    expect(versions.items).toMatchObject([
      { version: 1, introduced_by_run: null, sql: 'INSERT INTO out SELECT * FROM a' },
    ]);

    // A newer JobEvent's facet replaces the older one's; the others stay.
    const newer = {
      ...jobEvent,
      eventTime: at(5),
      job: { namespace: 'dbt', name, facets: { documentation: { description: 'v2' } } },
    };
    ok(await post(newer), 201);
    expect(ok(await get(`lineage/jobs/${job.id}`))).toMatchObject({
      description: 'v2',
      sql: 'INSERT INTO out SELECT * FROM a',
    });

    const datasetEvent = {
      eventTime: at(0),
      producer: PRODUCER,
      schemaURL: `${SPEC}#/$defs/DatasetEvent`,
      dataset: { namespace: NS, name: 'src.versions_a' },
    };
    const jobsBefore = ok(await get('lineage/jobs?total=exact')).total;
    ok(await post(datasetEvent), 201);
    expect(ok(await get('lineage/jobs')).total).toBe(jobsBefore);
  });

  it('lists jobs by namespace and name, sorted', async () => {
    const ns = unique('ns');
    for (const name of ['b_job', 'a_job', 'c_other']) {
      ok(
        await post(runEvent('START', { job: name, jobNamespace: ns, runId: randomUUID(), time: at(0) })),
        201,
      );
    }
    const all = ok(await get(`lineage/jobs?namespace=${ns}`));
    expect(all.items.map((j: Row) => j.name)).toEqual(['a_job', 'b_job', 'c_other']);
    const some = ok(await get(`lineage/jobs?namespace=${ns}&name__like=JOB&sort=-name`));
    expect(some.items.map((j: Row) => j.name)).toEqual(['b_job', 'a_job']);
    expectEnvelope(await get('lineage/jobs?sort=state'), 422, 'VALIDATION_ERROR');
  });
});

describe('events of a run, dataset history and repeats', () => {
  let src: Row;
  let dst: Row;
  beforeAll(async () => {
    src = await table('src.history_in');
    dst = await table('dw.history_out');
  });

  it('records every RUNNING progress report of a run; a retry of one (same eventTime) is a repeat', async () => {
    const runId = randomUUID();
    const o = { job: unique('streaming'), runId, inputs: ['src.history_in'], outputs: ['dw.history_out'] };
    ok(await post(runEvent('START', { ...o, time: at(10) })), 201);
    const first = runEvent('RUNNING', { ...o, time: at(11), runFacets: { progress: { batch: 1 } } });
    ok(await post(first), 201);
    ok(await post(runEvent('RUNNING', { ...o, time: at(12), runFacets: { progress: { batch: 2 } } })), 201);
    expect(ok(await post(first), 200).duplicate).toBe(true);
    const events = ok(await get(`lineage/runs/${runId}/events`));
    expect(events.map((e: Row) => [e.event_type, e.event_time])).toEqual([
      ['START', at(10)],
      ['RUNNING', at(11)],
      ['RUNNING', at(12)],
    ]);
    const run = ok(await get(`lineage/runs/${runId}`));
    expect(run).toMatchObject({ state: 'RUNNING', last_event_time: at(12) });
    expect(run.facets.progress).toEqual({ batch: 2 });
  });

  it('lists the events of a run as sent, in eventTime order; a repeat changes nothing', async () => {
    const runId = randomUUID();
    const o = { job: unique('events'), runId, inputs: ['src.history_in'], outputs: ['dw.history_out'] };
    const complete = runEvent('COMPLETE', { ...o, time: at(7) });
    const start = runEvent('START', { ...o, time: at(2) });
    ok(await post(complete), 201);
    ok(await post(start), 201);
    const run = ok(await get(`lineage/runs/${runId}`));
    const events = ok(await get(`lineage/runs/${runId}/events`));
    expect(events.map((e: Row) => [e.event_type, e.event_time])).toEqual([
      ['START', at(2)],
      ['COMPLETE', at(7)],
    ]);
    expect(events.map((e: Row) => e.event)).toEqual([start, complete]);

    // The same COMPLETE again: answered from storage, nothing recorded again.
    const again = ok(await post(complete), 200);
    expect(again.duplicate).toBe(true);
    expect(ok(await get(`lineage/runs/${run.id}/events`))).toEqual(events);
    expect(ok(await get(`lineage/runs/${runId}`))).toEqual(run);
    const runs = ok(await get(`lineage/jobs/${run.job.id}/runs`));
    expect(runs.total).toBe(1);
  });

  it("answers a dataset's history by run, with the input and output facets as sent", async () => {
    const job = unique('history');
    const quality = {
      dataQualityMetrics: { _producer: PRODUCER, _schemaURL: 'x', rowCount: 42, columnMetrics: {} },
    };
    const stats = { outputStatistics: { _producer: PRODUCER, _schemaURL: 'x', rowCount: 40, size: 1024 } };
    const first = randomUUID();
    const second = randomUUID();
    const o = {
      job,
      inputs: [{ name: 'src.history_in', inputFacets: quality }],
      outputs: [{ name: 'dw.history_out', outputFacets: stats }],
    };
    ok(await post(runEvent('COMPLETE', { ...o, runId: first, time: at(1) })), 201);
    ok(await post(runEvent('FAIL', { ...o, runId: second, time: at(3) })), 201);

    const asInput = ok(await get(`datasets/${src.id}/runs`));
    const ours = asInput.items.filter((r: Row) => r.job.name === job);
    expect(ours.map((r: Row) => [r.role, r.run.run_id, r.run.state, r.event_time])).toEqual([
      ['input', second, 'FAILED', at(3)],
      ['input', first, 'COMPLETED', at(1)],
    ]);
    expect(ours[0].facets).toEqual(quality);
    const asOutput = ok(await get(`datasets/${dst.id}/runs?role=output`));
    const outputs = asOutput.items.filter((r: Row) => r.job.name === job);
    expect(outputs.map((r: Row) => r.role)).toEqual(['output', 'output']);
    expect(outputs[0].facets).toEqual(stats);
    expect(ok(await get(`datasets/${dst.id}/runs?role=input`)).total).toBe(0);
    const run = ok(await get(`lineage/runs/${first}`));
    expect(run.inputs[0].facets).toEqual(quality);
    expect(run.outputs[0].facets).toEqual(stats);
  });

  it('answers unknown jobs, runs and datasets with their codes', async () => {
    expectEnvelope(await get(`lineage/jobs/${UNKNOWN_ID}`), 404, 'LINEAGE_JOB_NOT_FOUND');
    expectEnvelope(await get(`lineage/jobs/${UNKNOWN_ID}/versions`), 404, 'LINEAGE_JOB_NOT_FOUND');
    expectEnvelope(await get(`lineage/jobs/${UNKNOWN_ID}/runs`), 404, 'LINEAGE_JOB_NOT_FOUND');
    expectEnvelope(await get(`lineage/runs/${UNKNOWN_ID}`), 404, 'LINEAGE_RUN_NOT_FOUND');
    expectEnvelope(await get(`lineage/runs/${UNKNOWN_ID}/events`), 404, 'LINEAGE_RUN_NOT_FOUND');
    expectEnvelope(await get(`datasets/${UNKNOWN_ID}/runs`), 404, 'DATASET_NOT_FOUND');
    expectEnvelope(await get('lineage/runs/not-a-uuid'), 422, 'VALIDATION_ERROR');
  });
});

describe('the job graph', () => {
  let a: Row;
  let b: Row;
  beforeAll(async () => {
    a = await table('src.graph_a');
    b = await table('dw.graph_b');
  });

  it('walks dataset → job → dataset from the current inputs and outputs, depth-limited, cycle-safe', async () => {
    const load = unique('graph_load');
    const publish = unique('graph_publish');
    ok(
      await post(
        runEvent('COMPLETE', {
          job: load,
          runId: randomUUID(),
          time: at(0),
          inputs: ['src.graph_a'],
          outputs: ['dw.graph_b'],
        }),
      ),
      201,
    );
    ok(
      await post(
        runEvent('COMPLETE', {
          job: publish,
          runId: randomUUID(),
          time: at(1),
          inputs: ['dw.graph_b'],
          outputs: ['dw.graph_c'],
        }),
      ),
      201,
    );
    const loadJob = ok(await get(`lineage/jobs?namespace=spark&name=${load}`)).items[0];
    const publishJob = ok(await get(`lineage/jobs?namespace=spark&name=${publish}`)).items[0];
    const c = `dataset:${NS}/dw.graph_c`;

    const down = ok(await get(`lineage/graph?node=dataset:${a.id}&direction=downstream&depth=4`));
    expect(down.nodes.map((n: Row) => [n.key, n.type, n.id, n.downstream_depth])).toEqual([
      [`dataset:${a.id}`, 'dataset', a.id, 0],
      [`job:${loadJob.id}`, 'job', loadJob.id, 1],
      [`dataset:${b.id}`, 'dataset', b.id, 2],
      [`job:${publishJob.id}`, 'job', publishJob.id, 3],
      [c, 'dataset', null, 4],
    ]);
    expect(down.nodes[1]).toMatchObject({ namespace: 'spark', name: load, object_name: null });
    expect(down.nodes[2]).toMatchObject({ name: 'dw.graph_b', object_name: 'dw.graph_b' });
    expect(down.edges).toEqual([
      { source: `dataset:${a.id}`, target: `job:${loadJob.id}`, role: 'input' },
      { source: `job:${loadJob.id}`, target: `dataset:${b.id}`, role: 'output' },
      { source: `dataset:${b.id}`, target: `job:${publishJob.id}`, role: 'input' },
      { source: `job:${publishJob.id}`, target: c, role: 'output' },
    ]);
    const near = ok(await get(`lineage/graph?node=dataset:${a.id}&direction=downstream&depth=2`));
    expect([near.total_nodes, near.total_edges]).toEqual([3, 2]);

    const up = ok(await get(`lineage/graph?node=job:${publishJob.id}&direction=upstream&depth=5`));
    expect(up.nodes.map((n: Row) => [n.key, n.upstream_depth])).toEqual([
      [`job:${publishJob.id}`, 0],
      [`dataset:${b.id}`, 1],
      [`job:${loadJob.id}`, 2],
      [`dataset:${a.id}`, 3],
    ]);

    // A job writing back into the first dataset closes a cycle: the walk still ends, each node once.
    const back = unique('graph_back');
    ok(
      await post(
        runEvent('COMPLETE', {
          job: back,
          runId: randomUUID(),
          time: at(2),
          inputs: ['dw.graph_b'],
          outputs: ['src.graph_a'],
        }),
      ),
      201,
    );
    const cycle = ok(await get(`lineage/graph?node=dataset:${a.id}&depth=20`));
    expect(cycle.total_nodes).toBe(6);
    expect(new Set(cycle.nodes.map((n: Row) => n.key)).size).toBe(6);

    // The load job now reads another dataset: the graph follows its current version.
    ok(
      await post(
        runEvent('COMPLETE', {
          job: load,
          runId: randomUUID(),
          time: at(3),
          inputs: ['src.graph_x'],
          outputs: ['dw.graph_b'],
        }),
      ),
      201,
    );
    const after = ok(await get(`lineage/graph?node=job:${loadJob.id}&direction=upstream&depth=1`));
    expect(after.nodes.map((n: Row) => n.key)).toEqual([`job:${loadJob.id}`, `dataset:${NS}/src.graph_x`]);
  });

  it('answers unknown roots and malformed nodes with their codes', async () => {
    expectEnvelope(await get(`lineage/graph?node=job:${UNKNOWN_ID}`), 404, 'LINEAGE_JOB_NOT_FOUND');
    expectEnvelope(await get(`lineage/graph?node=dataset:${UNKNOWN_ID}`), 404, 'DATASET_NOT_FOUND');
    expectEnvelope(await get('lineage/graph?node=run:x'), 422, 'VALIDATION_ERROR');
    expectEnvelope(await get('lineage/graph'), 422, 'VALIDATION_ERROR');
  });
});

describe('raw event retention', () => {
  it('prunes raw events older than AIDE_OPENLINEAGE_EVENT_RETENTION_DAYS; the run stays', async () => {
    const kept = await createTestContext({ AIDE_OPENLINEAGE_EVENT_RETENTION_DAYS: '30' });
    try {
      const runId = randomUUID();
      const o = { job: unique('retained'), runId };
      for (const [type, minute] of [
        ['START', 0],
        ['COMPLETE', 1],
      ] as const) {
        const event = runEvent(type, { ...o, time: at(minute) });
        ok(await kept.request('POST', `${API}/lineage`, { token: kept.userToken, body: event }), 201);
      }
      await kept.dataSource.query(
        `UPDATE lineage_run_events SET received_at = now() - interval '31 days' WHERE event_key = $1`,
        [`run:${runId}:START`],
      );
      const report = await kept.app.get(Housekeeping).run();
      expect(report.openlineage_run_events).toBe(1);
      const read = (path: string) => kept.request('GET', `${API}/${path}`, { token: kept.userToken });
      expect(ok(await read(`lineage/runs/${runId}/events`)).map((e: Row) => e.event_type)).toEqual([
        'COMPLETE',
      ]);
      expect(ok(await read(`lineage/runs/${runId}`))).toMatchObject({
        state: 'COMPLETED',
        started_at: at(0),
      });
    } finally {
      await kept.close();
    }
  });
});

describe('replayed events (ADR 0054)', () => {
  it('a dataset registered after its run ran is filled in on replay; the run is otherwise unchanged', async () => {
    await table('dw.replay_out');
    const runId = randomUUID();
    const o = { job: unique('replayed'), runId, inputs: ['src.replay_later'], outputs: ['dw.replay_out'] };
    ok(await post(runEvent('START', { ...o, time: at(0) })), 201);
    ok(await post(runEvent('COMPLETE', { ...o, time: at(4) })), 201);
    const before = ok(await get(`lineage/runs/${runId}`));
    expect(before.inputs.map((d: Row) => d.dataset_id)).toEqual([null]);

    const [unknown] = ok(await get('lineage/unknown-datasets?name=src.replay_later')).items;
    const later = await table('src.replay_later');
    ok(
      await ctx.request('POST', `${API}/lineage/openlineage/replay`, {
        token: ctx.userToken,
        body: { unknown_dataset_id: unknown.id },
      }),
    );
    const after = ok(await get(`lineage/runs/${runId}`));
    expect(after.inputs.map((d: Row) => d.dataset_id)).toEqual([later.id]);
    const { inputs: _i, updated_at: _u, ...rest } = after;
    const { inputs: _bi, updated_at: _bu, ...restBefore } = before;
    expect(rest).toEqual(restBefore);
    expect(ok(await get(`lineage/runs/${runId}/events`))).toHaveLength(2);
    expect(ok(await get(`lineage/jobs/${after.job.id}/versions`)).total).toBe(1);
    const history = ok(await get(`datasets/${later.id}/runs`));
    expect(history.items.map((r: Row) => [r.role, r.run.run_id])).toEqual([['input', runId]]);
  });
});
