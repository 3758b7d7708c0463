import type { ObservedSchema, Page, UnknownDataset, UnknownDatasetQuery } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppError } from '../../../common/errors/app-error.js';
import { normalizeNamespace } from '../openlineage-naming.js';
import { toObservedSchema, toUnknownDataset } from './lineage-observation.mapper.js';
import { LineageObservationsRepository } from './lineage-observations.repository.js';

/** Reads of what the OpenLineage intake observed (ADR 0054): unknown datasets, observed schemas. */
@Injectable()
export class LineageObservationsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly repo: LineageObservationsRepository,
  ) {}

  async unknownDatasets(q: UnknownDatasetQuery): Promise<Page<UnknownDataset>> {
    const m = this.dataSource.manager;
    const ns = q.namespace === undefined ? undefined : normalizeNamespace(q.namespace);
    const { rows, total } = await this.repo.unknownPage(q, ns, m);
    const jobs = await this.repo.jobsOf(
      rows.map((r) => r.id),
      m,
    );
    return {
      items: rows.map((r) => toUnknownDataset(r, jobs)),
      total,
      page: q.page,
      size: q.size,
      pages: Math.ceil(total / q.size),
    };
  }

  async unknownDataset(id: string): Promise<UnknownDataset> {
    const m = this.dataSource.manager;
    const row = await this.repo.unknownById(id, m);
    if (!row) throw new AppError('UNKNOWN_DATASET_NOT_FOUND');
    return toUnknownDataset(row, await this.repo.jobsOf([id], m));
  }

  async observedSchemas(datasetId: string): Promise<ObservedSchema[]> {
    const m = this.dataSource.manager;
    if (!(await this.repo.datasetExists(datasetId, m))) throw new AppError('DATASET_NOT_FOUND');
    return (await this.repo.observedOf(datasetId, m)).map(toObservedSchema);
  }
}
