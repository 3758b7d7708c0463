import type { DatasetLineageGraph, FieldLineageGraph, LineageQuery } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error.js';
import { type GraphKind, LineageGraphRepository } from './lineage-graph.repository.js';

@Injectable()
export class LineageService {
  constructor(private readonly graphs: LineageGraphRepository) {}

  private async graph(kind: GraphKind, rootId: string, query: LineageQuery) {
    const rows = await this.graphs.page(kind, rootId, query);
    if (!rows.root_exists) throw new AppError(kind === 'datasets' ? 'DATASET_NOT_FOUND' : 'FIELD_NOT_FOUND');
    return {
      root_id: rootId,
      direction: query.direction,
      depth: query.depth,
      page: query.page,
      size: query.size,
      pages: Math.ceil(rows.total_nodes / query.size),
      total_nodes: rows.total_nodes,
      total_edges: rows.total_edges,
      nodes: rows.nodes,
      edges: rows.edges,
    };
  }

  /** Datasets reachable through active dataset links, one recursive query (ADR 0014). */
  datasets(rootId: string, query: LineageQuery): Promise<DatasetLineageGraph> {
    return this.graph('datasets', rootId, query) as Promise<DatasetLineageGraph>;
  }

  /** Fields reachable through field links of active dataset links. */
  fields(rootId: string, query: LineageQuery): Promise<FieldLineageGraph> {
    return this.graph('fields', rootId, query) as Promise<FieldLineageGraph>;
  }
}
