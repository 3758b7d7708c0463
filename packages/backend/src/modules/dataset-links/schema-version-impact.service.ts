import type {
  FieldCompatRow,
  ImpactDataflow,
  ImpactFieldLink,
  ImpactLink,
  PublishSchemaVersionSchema,
  SchemaVersionImpact,
} from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { z } from 'zod';
import type { AuthUser } from '../../common/auth/current-user.js';
import { AppError } from '../../common/errors/app-error.js';
import { Transactions } from '../../database/transactions.js';
import type { DataTypeEntity } from '../data-types/data-type.entity.js';
import { DataTypesLookup } from '../data-types/data-types.lookup.js';
import { DatasetSchemasLookup } from '../dataset-schemas/dataset-schemas.lookup.js';
import { DatasetsLookup } from '../datasets/datasets.lookup.js';
import { type ResolvedTypeSpec, resolveTypeSpec } from '../type-instances/type-spec-resolver.js';
import type { TypeTreeNode } from '../type-instances/type-tree.js';
import type { CompatFieldRow, CompatLinkRow } from './compat.repository.js';
import { CompatRepository } from './compat.repository.js';
import { type Computed, DatasetLinkCompatService } from './dataset-link-compat.service.js';

type PublishInput = z.output<typeof PublishSchemaVersionSchema>;

/** A would-be column: its type as a tree (null: no data type, a native type only) and nullability. */
interface WouldBeColumn {
  tree: TypeTreeNode | null;
  nullable: boolean;
}

/**
 * Impact analysis (ADR 0021): what publishing a version would break. The body of a publish is checked
 * as a publish checks it (types resolved against the dataset's flavor, params validated) but nothing is
 * written; every active link with the dataset on either side gets its ETL pre-flight twice — as it is,
 * and re-pinned to the would-be version on the dataset's side (the compat rules of ADR 0015, the same
 * fixed number of queries whatever the number of links).
 */
@Injectable()
export class SchemaVersionImpactService {
  constructor(
    private readonly tx: Transactions,
    private readonly datasets: DatasetsLookup,
    private readonly schemas: DatasetSchemasLookup,
    private readonly dataTypes: DataTypesLookup,
    private readonly compat: CompatRepository,
    private readonly reports: DatasetLinkCompatService,
  ) {}

  /**
   * `viewer`: an API key sees only the dataflows of the workspaces it is scoped to (as it lists them);
   * a token sees them all.
   */
  async preview(datasetId: string, input: PublishInput, viewer?: AuthUser): Promise<SchemaVersionImpact> {
    const { id, columns, currentNum } = await this.tx.run(async (m) => {
      const found = await this.datasets.findActiveWithFlavor([datasetId], m);
      const dataset = found.get(datasetId.toLowerCase());
      if (!dataset) throw new AppError('DATASET_NOT_FOUND');
      const types = (await this.dataTypes.byCodeOfFlavors([dataset.flavor_id], m)).get(dataset.flavor_id);
      const [current] = await this.schemas.findCurrentOfMany([dataset.id], m);
      return {
        id: dataset.id,
        columns: wouldBeColumns(input, types ?? new Map()),
        currentNum: current?.version_num ?? null,
      };
    });
    const { rows: links } = await this.compat.linksWhere({ dataset_id: id });
    const linksById = new Map(links.map((l) => [l.id, l]));
    const now = await this.reports.compute(links, false);
    const after = await this.reports.compute(
      links.map((l) => repinned(l, id)),
      true,
      (rows, trees) => rows.map((r) => withWouldBe(r, linksById, id, columns, trees)),
    );
    const columnNames = new Set(input.columns.map((c) => c.name));
    const visible = viewer?.workspace_ids;
    const touching = (await this.compat.dataflowsOf(id)).filter(
      (f) => visible === undefined || visible.includes(f.workspace_id),
    );
    const dataflows = touching.map((f): ImpactDataflow => {
      const missing = [...new Set(f.columns)].filter((c) => !columnNames.has(c));
      return {
        dataflow_id: f.id,
        name: f.name,
        workspace_id: f.workspace_id,
        side: f.side,
        other_dataset: f.other_id ? { id: f.other_id, object_name: f.other_name as string } : null,
        dataset_link_id: f.dataset_link_id,
        is_active: f.is_active,
        missing_columns: missing,
        breaks: missing.length > 0,
      };
    });
    const nowById = new Map(now.map((c) => [c.link.id, c]));
    const impacts = after
      .map((a) => impactOf(nowById.get(a.link.id) as Computed, a, id))
      .sort((x, y) => (x.side === y.side ? 0 : x.side === 'source' ? -1 : 1));
    return {
      dataset_id: id,
      current_version_num: currentNum,
      summary: {
        links: impacts.length,
        breaking_links: impacts.filter((l) => l.breaks).length,
        breaking_field_links: impacts.reduce((n, l) => n + l.field_links.filter((f) => f.breaks).length, 0),
        dataflows: dataflows.length,
        breaking_dataflows: dataflows.filter((f) => f.breaks).length,
      },
      links: impacts,
      dataflows,
    };
  }
}

/** The publish body's columns by name, their types resolved as a publish resolves them. */
function wouldBeColumns(
  input: PublishInput,
  types: ReadonlyMap<string, DataTypeEntity>,
): Map<string, WouldBeColumn> {
  const byId = new Map([...types.values()].map((t) => [t.id, t]));
  let next = 0;
  const toNode = (spec: ResolvedTypeSpec): TypeTreeNode => {
    const type = byId.get(spec.data_type_id) as DataTypeEntity;
    next += 1;
    return {
      // Not a stored row: an id no type instance has, unique within this preview.
      id: `would-be:${next}`,
      data_type_id: spec.data_type_id,
      code: type.code,
      render_template: type.render_template,
      type_params: spec.type_params,
      slot: spec.slot,
      children: spec.children.map(toNode),
    };
  };
  return new Map(
    input.columns.map((column, i) => [
      column.name,
      {
        tree: column.type ? toNode(resolveTypeSpec(column.type, types, ['columns', i, 'type'])) : null,
        nullable: column.nullable,
      },
    ]),
  );
}

/** The link as it would be re-pinned to the would-be version on the dataset's side: no drift there. */
function repinned(link: CompatLinkRow, datasetId: string): CompatLinkRow {
  if (link.source_dataset_id === datasetId) return { ...link, source_pinned: link.source_latest };
  return { ...link, target_pinned: link.target_latest };
}

/** A field row with the dataset's side replaced by the would-be column of the same name. */
function withWouldBe(
  row: CompatFieldRow,
  links: ReadonlyMap<string, CompatLinkRow>,
  datasetId: string,
  columns: ReadonlyMap<string, WouldBeColumn>,
  trees: Map<string, TypeTreeNode>,
): CompatFieldRow {
  const link = links.get(row.dataset_link_id) as CompatLinkRow;
  const side = link.source_dataset_id === datasetId ? 'source' : 'target';
  const column = columns.get(side === 'source' ? row.source_field_name : row.target_field_name);
  const tree = column?.tree ?? null;
  if (tree) trees.set(tree.id, tree);
  const replaced = {
    type_id: tree?.id ?? null,
    nullable: column ? column.nullable : null,
    root: null,
  };
  return side === 'source'
    ? {
        ...row,
        source_type_id: replaced.type_id,
        source_nullable: replaced.nullable,
        source_root: replaced.root,
      }
    : {
        ...row,
        target_type_id: replaced.type_id,
        target_nullable: replaced.nullable,
        target_root: replaced.root,
      };
}

function impactOf(now: Computed, after: Computed, datasetId: string): ImpactLink {
  const severityNow = new Map(now.rows.map((r) => [r.field_link_id, r.severity]));
  const fieldLinks = after.rows.map((r: FieldCompatRow): ImpactFieldLink => {
    const before = severityNow.get(r.field_link_id) ?? 'ok';
    return {
      field_link_id: r.field_link_id,
      source_field: r.source_field,
      target_field: r.target_field,
      severity_now: before,
      severity_after: r.severity,
      issues_after: r.issues,
      source_type_after: r.source_type,
      target_type_after: r.target_type,
      breaks: r.severity === 'error' && before !== 'error',
    };
  });
  const link = after.link;
  return {
    dataset_link_id: link.id,
    side: link.source_dataset_id === datasetId ? 'source' : 'target',
    source_dataset: { id: link.source_dataset_id, object_name: link.source_name },
    target_dataset: { id: link.target_dataset_id, object_name: link.target_name },
    status_now: now.status,
    status_after: after.status,
    summary_after: after.summary,
    breaks: fieldLinks.some((f) => f.breaks),
    field_links: fieldLinks,
  };
}
