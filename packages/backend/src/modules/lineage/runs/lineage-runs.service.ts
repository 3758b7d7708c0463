import type {
  DatasetRun,
  LineageJob,
  LineageJobGraph,
  LineageJobGraphQuery,
  LineageJobVersion,
  LineageRun,
  LineageRunEvent,
  ListQuery,
  Page,
} from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import { AppError } from '../../../common/errors/app-error.js';
import { LineageJobGraphRepository } from './lineage-job-graph.repository.js';
import type { LineageJobEntity } from './lineage-job.entity.js';
import type { LineageRunEntity } from './lineage-run.entity.js';
import {
  toDatasetRun,
  toLineageJob,
  toLineageJobVersion,
  toLineageRun,
  toLineageRunEvent,
} from './lineage-runs.mapper.js';
import { LineageRunsRepository } from './lineage-runs.repository.js';

const byId = <T extends { id: string }>(rows: readonly T[]) => new Map(rows.map((r) => [r.id, r]));

/**
 * Jobs, job versions and runs as read APIs (issue 27 §3, ADR 0053). Reads only: each page is one query
 * for its rows, then one per kind of row they name (versions, runs, jobs, datasets).
 */
@Injectable()
export class LineageRunsService {
  constructor(
    private readonly repo: LineageRunsRepository,
    private readonly graphs: LineageJobGraphRepository,
  ) {}

  /** The job graph around a job or a dataset (dataset → job → dataset), one statement per page. */
  async graph(query: LineageJobGraphQuery): Promise<LineageJobGraph> {
    const rows = await this.graphs.page(query);
    if (!rows.root_exists) {
      const id = query.node.slice(query.node.indexOf(':') + 1);
      throw query.node.startsWith('job:')
        ? new AppError('LINEAGE_JOB_NOT_FOUND', undefined, { id })
        : new AppError('DATASET_NOT_FOUND', undefined, { id });
    }
    return {
      root: query.node,
      direction: query.direction,
      depth: query.depth,
      page: query.page,
      size: query.size,
      pages: Math.ceil(rows.total_nodes / query.size),
      total_nodes: rows.total_nodes,
      total_edges: rows.total_edges,
      nodes: rows.nodes as LineageJobGraph['nodes'],
      edges: rows.edges as LineageJobGraph['edges'],
    };
  }

  async jobs(query: ListQuery): Promise<Page<LineageJob>> {
    const page = await this.repo.jobsPage(query);
    return { ...page, items: await this.withJobParts(page.items) };
  }

  async job(id: string): Promise<LineageJob> {
    const [job] = await this.withJobParts([await this.getJob(id)]);
    return job;
  }

  async versions(jobId: string, query: ListQuery): Promise<Page<LineageJobVersion>> {
    await this.getJob(jobId);
    const page = await this.repo.versionsPage(jobId, query);
    const runs = byId(
      await this.repo.runs(
        page.items.flatMap((v) => (v.introduced_by_run_id ? [v.introduced_by_run_id] : [])),
      ),
    );
    return {
      ...page,
      items: page.items.map((v) =>
        toLineageJobVersion(v, v.introduced_by_run_id ? (runs.get(v.introduced_by_run_id) ?? null) : null),
      ),
    };
  }

  async jobRuns(jobId: string, query: ListQuery): Promise<Page<LineageRun>> {
    await this.getJob(jobId);
    const page = await this.repo.runsPage(jobId, query);
    return { ...page, items: await this.withRunParts(page.items) };
  }

  async run(id: string): Promise<LineageRun> {
    const [run] = await this.withRunParts([await this.getRun(id)]);
    return run;
  }

  async runEvents(id: string): Promise<LineageRunEvent[]> {
    const run = await this.getRun(id);
    return (await this.repo.runEvents(run.id)).map(toLineageRunEvent);
  }

  async datasetRuns(datasetId: string, query: ListQuery): Promise<Page<DatasetRun>> {
    if (!(await this.repo.datasetExists(datasetId))) {
      throw new AppError('DATASET_NOT_FOUND', undefined, { id: datasetId });
    }
    const page = await this.repo.datasetRunsPage(datasetId, query);
    const runs = byId(await this.repo.runs(page.items.map((d) => d.lineage_run_id)));
    const jobs = byId(await this.repo.jobs([...runs.values()].map((r) => r.job_id)));
    return {
      ...page,
      items: page.items.flatMap((d) => {
        const run = runs.get(d.lineage_run_id);
        const job = run && jobs.get(run.job_id);
        return run && job ? [toDatasetRun(d, run, job)] : [];
      }),
    };
  }

  private async getJob(id: string): Promise<LineageJobEntity> {
    const job = await this.repo.job(id);
    if (!job) throw new AppError('LINEAGE_JOB_NOT_FOUND', undefined, { id });
    return job;
  }

  private async getRun(id: string): Promise<LineageRunEntity> {
    const run = await this.repo.run(id);
    if (!run) throw new AppError('LINEAGE_RUN_NOT_FOUND', undefined, { id });
    return run;
  }

  private async withJobParts(jobs: LineageJobEntity[]): Promise<LineageJob[]> {
    const versions = byId(
      await this.repo.versions(jobs.flatMap((j) => (j.current_version_id ? [j.current_version_id] : []))),
    );
    const latest = new Map((await this.repo.latestRuns(jobs.map((j) => j.id))).map((r) => [r.job_id, r]));
    return jobs.map((j) =>
      toLineageJob(
        j,
        j.current_version_id ? (versions.get(j.current_version_id) ?? null) : null,
        latest.get(j.id) ?? null,
      ),
    );
  }

  private async withRunParts(runs: LineageRunEntity[]): Promise<LineageRun[]> {
    const jobs = byId(await this.repo.jobs(runs.map((r) => r.job_id)));
    const versions = byId(
      await this.repo.versions(runs.flatMap((r) => (r.job_version_id ? [r.job_version_id] : []))),
    );
    const datasets = await this.repo.runDatasets(runs.map((r) => r.id));
    return runs.map((r) =>
      toLineageRun(
        r,
        jobs.get(r.job_id) as LineageJobEntity,
        r.job_version_id ? (versions.get(r.job_version_id) ?? null) : null,
        datasets.filter((d) => d.lineage_run_id === r.id),
      ),
    );
  }
}
