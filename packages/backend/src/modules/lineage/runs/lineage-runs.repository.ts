import type { ListQuery, Page } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import { DataSource, type ObjectLiteral } from 'typeorm';
import { applyFilters, fetchKeysetPage } from '../../../common/crud/list.js';
import { LineageJobVersionEntity } from './lineage-job-version.entity.js';
import { LineageJobEntity } from './lineage-job.entity.js';
import { LineageRunDatasetEntity } from './lineage-run-dataset.entity.js';
import { LineageRunEventEntity } from './lineage-run-event.entity.js';
import { LineageRunEntity } from './lineage-run.entity.js';

/** The reads of jobs, versions and runs (ADR 0053): pages by the collections' list contract, then the rows they name. */
@Injectable()
export class LineageRunsRepository {
  constructor(private readonly dataSource: DataSource) {}

  jobsPage(query: ListQuery): Promise<Page<LineageJobEntity>> {
    return this.page(LineageJobEntity, query);
  }

  versionsPage(jobId: string, query: ListQuery): Promise<Page<LineageJobVersionEntity>> {
    return this.page(LineageJobVersionEntity, query, { column: 'job_id', value: jobId });
  }

  runsPage(jobId: string, query: ListQuery): Promise<Page<LineageRunEntity>> {
    return this.page(LineageRunEntity, query, { column: 'job_id', value: jobId });
  }

  datasetRunsPage(datasetId: string, query: ListQuery): Promise<Page<LineageRunDatasetEntity>> {
    return this.page(LineageRunDatasetEntity, query, { column: 'dataset_id', value: datasetId });
  }

  async job(id: string): Promise<LineageJobEntity | null> {
    return this.dataSource.getRepository(LineageJobEntity).findOneBy({ id });
  }

  /** A run by its id or its OpenLineage runId (both UUIDs). */
  async run(id: string): Promise<LineageRunEntity | null> {
    return this.dataSource
      .getRepository(LineageRunEntity)
      .createQueryBuilder('r')
      .where('r.id = :id OR r.run_id = :id', { id: id.toLowerCase() })
      .getOne();
  }

  runs(ids: readonly string[]): Promise<LineageRunEntity[]> {
    return this.byIds(LineageRunEntity, ids);
  }

  jobs(ids: readonly string[]): Promise<LineageJobEntity[]> {
    return this.byIds(LineageJobEntity, ids);
  }

  versions(ids: readonly string[]): Promise<LineageJobVersionEntity[]> {
    return this.byIds(LineageJobVersionEntity, ids);
  }

  /** Each job's newest run (by its first eventTime). */
  latestRuns(jobIds: readonly string[]): Promise<LineageRunEntity[]> {
    if (jobIds.length === 0) return Promise.resolve([]);
    return this.dataSource
      .getRepository(LineageRunEntity)
      .createQueryBuilder('r')
      .distinctOn(['r.job_id'])
      .where('r.job_id IN (:...jobIds)', { jobIds })
      .orderBy('r.job_id')
      .addOrderBy('r.first_event_time', 'DESC')
      .addOrderBy('r.created_at', 'DESC')
      .getMany();
  }

  runDatasets(runIds: readonly string[]): Promise<LineageRunDatasetEntity[]> {
    if (runIds.length === 0) return Promise.resolve([]);
    return this.dataSource
      .getRepository(LineageRunDatasetEntity)
      .createQueryBuilder('d')
      .where('d.lineage_run_id IN (:...runIds)', { runIds })
      .orderBy('d.role')
      .addOrderBy('d.namespace')
      .addOrderBy('d.name')
      .getMany();
  }

  runEvents(runId: string): Promise<LineageRunEventEntity[]> {
    return this.dataSource
      .getRepository(LineageRunEventEntity)
      .createQueryBuilder('e')
      .where('e.lineage_run_id = :runId', { runId })
      .orderBy('e.event_time')
      .addOrderBy('e.received_at')
      .getMany();
  }

  async datasetExists(id: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      'SELECT 1 FROM datasets WHERE id = $1 AND deleted_at IS NULL',
      [id],
    );
    return rows.length > 0;
  }

  private page<E extends ObjectLiteral>(
    entity: new () => E,
    query: ListQuery,
    scope?: { column: string; value: string },
  ): Promise<Page<E>> {
    const qb = this.dataSource.getRepository(entity).createQueryBuilder('e');
    if (scope) qb.where(`e.${scope.column} = :scope`, { scope: scope.value });
    applyFilters(qb, 'e', query.filters);
    return fetchKeysetPage(qb, 'e', query);
  }

  private byIds<E extends ObjectLiteral>(entity: new () => E, ids: readonly string[]): Promise<E[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.dataSource
      .getRepository(entity)
      .createQueryBuilder('e')
      .where('e.id IN (:...ids)', { ids: [...new Set(ids)] })
      .getMany();
  }
}
