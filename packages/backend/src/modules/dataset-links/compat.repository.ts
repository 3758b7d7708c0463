import { fieldLinkRole } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { CastCandidate } from '../cast-rules/cast-resolver.js';
import type { DataTypeParams } from './compat.js';

/** A link with what its pre-flight needs: pinned and current versions, dataset names. */
export interface CompatLinkRow {
  id: string;
  source_dataset_id: string;
  target_dataset_id: string;
  source_schema_id: string;
  target_schema_id: string;
  source_name: string;
  target_name: string;
  source_pinned: number;
  target_pinned: number;
  source_latest: number;
  target_latest: number;
  updated_at: Date;
}

/** A field link with its two fields and their bindings in the pinned versions (null when unbound). */
export interface CompatFieldRow {
  id: string;
  dataset_link_id: string;
  source_field_id: string;
  source_field_name: string;
  target_field_id: string;
  target_field_name: string;
  target_origin: string;
  /**
   * The target takes the source's value (`fieldLinkRole` copy, ADR 0052): only then are the two types
   * compared; an aggregate or a filter column is not cast into the target.
   */
  copies: boolean;
  source_type_id: string | null;
  source_nullable: boolean | null;
  target_type_id: string | null;
  target_nullable: boolean | null;
  /** The bound type's root node, read with the row (null when unbound). */
  source_root: CompatRootNode | null;
  target_root: CompatRootNode | null;
}

/** A type tree's root as the field-row read returns it; `nested` when it has children (read apart). */
export interface CompatRootNode {
  id: string;
  data_type_id: string;
  type_params: Record<string, unknown> | null;
  code: string;
  render_template: string | null;
  nested: boolean;
}

/** Filters of the bulk report that SQL applies. */
export interface CompatLinkFilter {
  dataset_id?: string | undefined;
  system_id?: string | undefined;
  has_drift?: boolean | undefined;
}

// "Current" version = the highest one with bindings (DESIGN §4), else the pinned one.
const LINKS = `
  SELECT l.id, l.source_dataset_id, l.target_dataset_id, l.source_schema_id, l.target_schema_id, l.updated_at,
         sd.object_name AS source_name, td.object_name AS target_name,
         ss.version_num AS source_pinned, ts.version_num AS target_pinned,
         coalesce((SELECT max(v.version_num) FROM dataset_schemas v WHERE v.dataset_id = l.source_dataset_id
                   AND EXISTS (SELECT 1 FROM field_bindings b WHERE b.dataset_schema_id = v.id)), ss.version_num)
           AS source_latest,
         coalesce((SELECT max(v.version_num) FROM dataset_schemas v WHERE v.dataset_id = l.target_dataset_id
                   AND EXISTS (SELECT 1 FROM field_bindings b WHERE b.dataset_schema_id = v.id)), ts.version_num)
           AS target_latest
  FROM dataset_links l
  JOIN dataset_schemas ss ON ss.id = l.source_schema_id
  JOIN dataset_schemas ts ON ts.id = l.target_schema_id
  JOIN datasets sd ON sd.id = l.source_dataset_id
  JOIN datasets td ON td.id = l.target_dataset_id
  WHERE l.deleted_at IS NULL`;

/**
 * The reads of the compat report, each one query whatever the number of links: links, field rows,
 * data types, cast rules between given pairs (type trees come from TypeInstancesLookup.subtrees).
 */
@Injectable()
export class CompatRepository {
  constructor(private readonly dataSource: DataSource) {}

  linksByIds(ids: readonly string[]): Promise<CompatLinkRow[]> {
    return this.dataSource.query(`${LINKS} AND l.id = ANY($1::uuid[]) ORDER BY l.updated_at, l.id`, [ids]);
  }

  /** Active links matching the SQL filters, ordered by updated_at; a window of them when `limit` is set. */
  async linksWhere(
    filter: CompatLinkFilter,
    window?: { offset: number; limit: number },
  ): Promise<{ rows: CompatLinkRow[]; total: number }> {
    const params: unknown[] = [filter.dataset_id ?? null, filter.system_id ?? null, filter.has_drift ?? null];
    const where = `
      FROM (${LINKS}
        AND ($1::uuid IS NULL OR l.source_dataset_id = $1 OR l.target_dataset_id = $1)
        AND ($2::uuid IS NULL OR sd.system_id = $2 OR td.system_id = $2)) x
      WHERE $3::boolean IS NULL
         OR ((x.source_latest <> x.source_pinned OR x.target_latest <> x.target_pinned) = $3)`;
    const paging = window ? `LIMIT ${Number(window.limit)} OFFSET ${Number(window.offset)}` : '';
    const rows: (CompatLinkRow & { total: number })[] = await this.dataSource.query(
      `SELECT x.*, count(*) OVER ()::int AS total ${where} ORDER BY x.updated_at, x.id ${paging}`,
      params,
    );
    const total = rows[0]?.total ?? (window ? await this.count(where, params) : 0);
    return { rows, total };
  }

  /**
   * The live dataflows reading (`source`) or writing (`destination`) the dataset, with the columns they
   * name on its side and the dataset at their other end, in one statement.
   */
  async dataflowsOf(datasetId: string): Promise<DataflowOfDataset[]> {
    return this.dataSource.query(
      `SELECT f.id, f.name, f.workspace_id, f.is_active, f.dataset_link_id,
              CASE WHEN f.source_dataset_id = $1 THEN 'source' ELSE 'destination' END AS side,
              CASE WHEN f.source_dataset_id = $1 THEN f.source_watermark_columns
                   ELSE f.merge_keys || ARRAY(SELECT p->>'column' FROM jsonb_array_elements(f.partition_columns) p)
              END AS columns,
              o.id AS other_id, o.object_name AS other_name
       FROM dataflows f
       LEFT JOIN datasets o ON o.id = CASE WHEN f.source_dataset_id = $1 THEN f.destination_dataset_id
                                           ELSE f.source_dataset_id END
       WHERE f.deleted_at IS NULL AND (f.source_dataset_id = $1 OR f.destination_dataset_id = $1)
       ORDER BY (f.source_dataset_id = $1) DESC, f.name, f.id`,
      [datasetId],
    );
  }

  private async count(where: string, params: unknown[]): Promise<number> {
    const rows: { n: number }[] = await this.dataSource.query(`SELECT count(*)::int AS n ${where}`, params);
    return rows[0]?.n ?? 0;
  }

  /**
   * The field links of the given links with their two fields, their bindings in the pinned versions and
   * the root node of each bound type (data type, params, whether it has children), in one statement: a
   * catalogue's columns are mostly scalar, so most trees are complete without a tree read.
   */
  async fieldRows(linkIds: readonly string[]): Promise<CompatFieldRow[]> {
    if (linkIds.length === 0) return [];
    const rows: RawFieldRow[] = await this.dataSource.query(
      `SELECT fl.id, fl.dataset_link_id,
              sf.id AS source_field_id, sf.name AS source_field_name,
              tf.id AS target_field_id, tf.name AS target_field_name, tf.origin AS target_origin,
              fl.transformations,
              sb.type_instance_id AS source_type_id, sb.is_nullable AS source_nullable,
              tb.type_instance_id AS target_type_id, tb.is_nullable AS target_nullable,
              st.data_type_id AS s_dt, st.type_params AS s_params, sdt.code AS s_code,
              sdt.render_template AS s_template,
              EXISTS (SELECT 1 FROM type_instances c WHERE c.parent_id = st.id) AS s_nested,
              tt.data_type_id AS t_dt, tt.type_params AS t_params, tdt.code AS t_code,
              tdt.render_template AS t_template,
              EXISTS (SELECT 1 FROM type_instances c WHERE c.parent_id = tt.id) AS t_nested
       FROM field_links fl
       JOIN dataset_links l ON l.id = fl.dataset_link_id
       JOIN fields sf ON sf.id = fl.source_field_id
       JOIN fields tf ON tf.id = fl.target_field_id
       LEFT JOIN field_bindings sb ON sb.field_id = sf.id AND sb.dataset_schema_id = l.source_schema_id
       LEFT JOIN field_bindings tb ON tb.field_id = tf.id AND tb.dataset_schema_id = l.target_schema_id
       LEFT JOIN type_instances st ON st.id = sb.type_instance_id
       LEFT JOIN data_types sdt ON sdt.id = st.data_type_id
       LEFT JOIN type_instances tt ON tt.id = tb.type_instance_id
       LEFT JOIN data_types tdt ON tdt.id = tt.data_type_id
       WHERE fl.dataset_link_id = ANY($1::uuid[])
       ORDER BY fl.dataset_link_id, fl.created_at, fl.id`,
      [linkIds],
    );
    return rows.map(toFieldRow);
  }

  dataTypes(ids: readonly string[]): Promise<DataTypeParams[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.dataSource.query(
      'SELECT id, code, params_schema, render_template FROM data_types WHERE id = ANY($1::uuid[])',
      [ids],
    );
  }

  /** The cast rules between the given (source, target) data-type pairs. */
  rulesBetween(pairs: readonly [string, string][]): Promise<CastCandidate[]> {
    if (pairs.length === 0) return Promise.resolve([]);
    return this.dataSource.query(
      `SELECT r.*, t.code AS target_code, t.params_schema AS target_params_schema,
              t.render_template AS target_render_template
       FROM cast_rules r
       JOIN unnest($1::uuid[], $2::uuid[]) AS p(s, t) ON r.source_data_type_id = p.s AND r.target_data_type_id = p.t
       JOIN data_types t ON t.id = r.target_data_type_id`,
      [pairs.map((p) => p[0]), pairs.map((p) => p[1])],
    );
  }
}

interface RawFieldRow extends Omit<CompatFieldRow, 'source_root' | 'target_root' | 'copies'> {
  transformations: { type: string; subtype?: string | null }[];
  s_dt: string | null;
  s_params: Record<string, unknown> | null;
  s_code: string | null;
  s_template: string | null;
  s_nested: boolean;
  t_dt: string | null;
  t_params: Record<string, unknown> | null;
  t_code: string | null;
  t_template: string | null;
  t_nested: boolean;
}

function toFieldRow(r: RawFieldRow): CompatFieldRow {
  const root = (
    id: string | null,
    dt: string | null,
    params: Record<string, unknown> | null,
    code: string | null,
    template: string | null,
    nested: boolean,
  ): CompatRootNode | null =>
    id && dt && code !== null
      ? { id, data_type_id: dt, type_params: params, code, render_template: template, nested }
      : null;
  return {
    id: r.id,
    dataset_link_id: r.dataset_link_id,
    source_field_id: r.source_field_id,
    source_field_name: r.source_field_name,
    target_field_id: r.target_field_id,
    target_field_name: r.target_field_name,
    target_origin: r.target_origin,
    copies: fieldLinkRole(r.transformations) === 'copy',
    source_type_id: r.source_type_id,
    source_nullable: r.source_nullable,
    target_type_id: r.target_type_id,
    target_nullable: r.target_nullable,
    source_root: root(r.source_type_id, r.s_dt, r.s_params, r.s_code, r.s_template, r.s_nested),
    target_root: root(r.target_type_id, r.t_dt, r.t_params, r.t_code, r.t_template, r.t_nested),
  };
}

/** A dataflow touching a dataset, as the impact analysis reads it. */
export interface DataflowOfDataset {
  id: string;
  name: string;
  workspace_id: string;
  is_active: boolean;
  dataset_link_id: string | null;
  side: 'source' | 'destination';
  /** The columns the dataflow names on the dataset's side. */
  columns: string[];
  other_id: string | null;
  other_name: string | null;
}
