import type { RenderSqlResult } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppError } from '../../common/errors/app-error.js';
import { buildTypeTrees, renderTypeText } from '../type-instances/type-tree.js';
import { TypeInstancesLookup } from '../type-instances/type-instances.lookup.js';
import { RenderBudget } from '../type-system/render-budget.js';
import {
  type Dialect,
  type Projection,
  quoteName,
  renderableLinks,
  renderStatement,
  type SourceReader,
} from './render-sql.js';

/** A side of the hop with what its qualified name and reader need. */
interface SideRow {
  id: string;
  kind: string;
  object_name: string;
  active: boolean;
  catalog_name: string | null;
  schema_name: string | null;
  rdbms_table: string | null;
  db_name: string | null;
  hive_table: string | null;
  topic: string | null;
  format: string | null;
}

const side = (prefix: 's' | 't', alias: string) => `
  ${alias}.id AS ${prefix}_id, ${alias}.kind AS ${prefix}_kind, ${alias}.object_name AS ${prefix}_object_name,
  ${alias}.deleted_at IS NULL AS ${prefix}_active,
  ${prefix}r.catalog_name AS ${prefix}_catalog_name, ${prefix}r.schema_name AS ${prefix}_schema_name,
  ${prefix}r.table_name AS ${prefix}_rdbms_table, ${prefix}h.db_name AS ${prefix}_db_name,
  ${prefix}h.table_name AS ${prefix}_hive_table, ${prefix}k.topic AS ${prefix}_topic, ${prefix}k.format AS ${prefix}_format`;
const joins = (prefix: 's' | 't', alias: string) => `
  LEFT JOIN dataset_rdbms ${prefix}r ON ${prefix}r.id = ${alias}.id
  LEFT JOIN dataset_hive ${prefix}h ON ${prefix}h.id = ${alias}.id
  LEFT JOIN dataset_kafka ${prefix}k ON ${prefix}k.id = ${alias}.id`;

function sideOf(row: Record<string, unknown>, prefix: 's' | 't'): SideRow {
  const get = <T>(name: string) => row[`${prefix}_${name}`] as T;
  return {
    id: get('id'),
    kind: get('kind'),
    object_name: get('object_name'),
    active: get('active'),
    catalog_name: get('catalog_name'),
    schema_name: get('schema_name'),
    rdbms_table: get('rdbms_table'),
    db_name: get('db_name'),
    hive_table: get('hive_table'),
    topic: get('topic'),
    format: get('format'),
  };
}

/** RDBMS `[catalog.]schema.table`, Hive `db.table`, Kafka topic, otherwise the object name (quoted). */
function qualifiedName(d: SideRow): string {
  if (d.kind === 'rdbms' && d.schema_name && d.rdbms_table) {
    return d.catalog_name
      ? quoteName(d.catalog_name, d.schema_name, d.rdbms_table)
      : quoteName(d.schema_name, d.rdbms_table);
  }
  if (d.kind === 'hive' && d.db_name && d.hive_table) return quoteName(d.db_name, d.hive_table);
  if (d.kind === 'kafka' && d.topic) return quoteName(d.topic);
  return quoteName(d.object_name);
}

/**
 * `POST /dataset-links/{id}/render-sql` (AIDE v2 §9.5), with the original's weak spot fixed (§10.25):
 * each target column is cast to the type of its binding in the pinned target version, rendered with the
 * target flavor's sandboxed templates (the type system's renderer, one render budget for the statement),
 * then written in the engine's dialect — Spark and Impala differ. Stateless; four reads.
 */
@Injectable()
export class RenderSqlService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly typeInstances: TypeInstancesLookup,
  ) {}

  async render(linkId: string): Promise<RenderSqlResult> {
    const [row]: Record<string, unknown>[] = await this.dataSource.query(
      `SELECT l.id, l.engine_id, e.kind AS engine_kind, e.role AS engine_role, ${side('s', 'sd')}, ${side('t', 'td')}
       FROM dataset_links l
       LEFT JOIN engines e ON e.id = l.engine_id AND e.deleted_at IS NULL
       JOIN datasets sd ON sd.id = l.source_dataset_id ${joins('s', 'sd')}
       JOIN datasets td ON td.id = l.target_dataset_id ${joins('t', 'td')}
       WHERE l.id = $1 AND l.deleted_at IS NULL`,
      [linkId],
    );
    if (!row) throw new AppError('DATASET_LINK_NOT_FOUND');
    if (!row['engine_id']) throw new AppError('ENGINE_NOT_ATTACHED');
    if (!row['engine_kind'])
      throw new AppError('ENGINE_NOT_FOUND', undefined, { engine_id: row['engine_id'] });
    if (row['engine_role'] !== 'compute') {
      throw new AppError('ENGINE_NOT_RENDERABLE', undefined, { engine_kind: row['engine_kind'] });
    }
    const source = sideOf(row, 's');
    const target = sideOf(row, 't');
    for (const d of [source, target]) {
      if (!d.active) throw new AppError('DATASET_NOT_FOUND', undefined, { dataset_id: d.id });
    }
    const warnings: RenderSqlResult['warnings'] = [];
    const reader = await this.readerOf(source, warnings);
    const projections = await this.projections(linkId, warnings);
    const dialect = row['engine_kind'] as Dialect;
    const sql = renderStatement(
      dialect,
      qualifiedName(target),
      qualifiedName(source),
      reader,
      projections,
      warnings,
    );
    return { engine_id: row['engine_id'] as string, engine_kind: dialect, sql, warnings };
  }

  /**
   * A Kafka source is read through the envelope of the CDC engine one hop upstream (the active link into
   * the topic with a `cdc` engine attached, the oldest when several): `after_path` of its envelope
   * template, JSON topics through get_json_object. Other sources are plain columns.
   */
  private async readerOf(source: SideRow, warnings: RenderSqlResult['warnings']): Promise<SourceReader> {
    if (source.kind !== 'kafka') return { afterPath: null, json: false };
    const cdc: { id: string; envelope_template: Record<string, unknown> | null }[] =
      await this.dataSource.query(
        `SELECT e.id, coalesce(dz.envelope_template, og.envelope_template) AS envelope_template
       FROM dataset_links u
       JOIN engines e ON e.id = u.engine_id AND e.deleted_at IS NULL AND e.role = 'cdc'
       LEFT JOIN engine_debezium dz ON dz.id = e.id
       LEFT JOIN engine_ogg og ON og.id = e.id
       WHERE u.target_dataset_id = $1 AND u.deleted_at IS NULL
       ORDER BY u.created_at, u.id`,
        [source.id],
      );
    const json = (source.format ?? '').toLowerCase() === 'json';
    const [first] = cdc;
    if (!first) {
      warnings.push({
        code: 'NO_CDC_ENGINE',
        field_link_id: null,
        field_name: null,
        detail: 'No link into the source topic has a CDC engine: columns are read as plain columns.',
      });
      return { afterPath: null, json };
    }
    if (new Set(cdc.map((c) => c.id)).size > 1) {
      warnings.push({
        code: 'CDC_ENGINE_AMBIGUOUS',
        field_link_id: null,
        field_name: null,
        detail: `Several CDC engines feed the source topic: the envelope of ${first.id} (the oldest link's) is used.`,
      });
    }
    const after = first.envelope_template?.['after_path'];
    const path = typeof after === 'string' && after.trim() !== '' ? after.trim() : 'after';
    return { afterPath: path.split('.').filter((p) => p !== ''), json };
  }

  /**
   * The renderable field links (`renderableLinks`: one direct identity source per target column) in
   * target column order, each with its target column's rendered type.
   */
  private async projections(linkId: string, warnings: RenderSqlResult['warnings']): Promise<Projection[]> {
    const all: {
      id: string;
      target_field_id: string;
      source_name: string;
      target_name: string;
      source_bound: boolean;
      target_type_id: string | null;
      transformations: { type: string; subtype?: string | null }[];
    }[] = await this.dataSource.query(
      `SELECT fl.id, fl.target_field_id, fl.transformations, sf.name AS source_name, tf.name AS target_name,
              sb.id IS NOT NULL AS source_bound, tb.type_instance_id AS target_type_id
       FROM field_links fl
       JOIN dataset_links l ON l.id = fl.dataset_link_id
       JOIN fields sf ON sf.id = fl.source_field_id
       JOIN fields tf ON tf.id = fl.target_field_id
       LEFT JOIN field_bindings sb ON sb.field_id = sf.id AND sb.dataset_schema_id = l.source_schema_id
       LEFT JOIN field_bindings tb ON tb.field_id = tf.id AND tb.dataset_schema_id = l.target_schema_id
       WHERE fl.dataset_link_id = $1
       ORDER BY tb.position NULLS LAST, tf.name, fl.id`,
      [linkId],
    );
    const renderable = renderableLinks(
      all.map((r) => ({
        fieldLinkId: r.id,
        targetFieldId: r.target_field_id,
        targetColumn: r.target_name,
        transformations: r.transformations,
      })),
      warnings,
    );
    const rows = all.filter((r) => renderable.has(r.id));
    const roots = [...new Set(rows.flatMap((r) => (r.target_type_id ? [r.target_type_id] : [])))];
    const trees = buildTypeTrees(await this.typeInstances.subtrees(roots));
    const budget = new RenderBudget();
    const texts = new Map<string, string>();
    return rows.map((r) => {
      let type: string | null = null;
      const tree = r.target_type_id ? trees.get(r.target_type_id) : undefined;
      if (tree && r.target_type_id) {
        type = texts.get(r.target_type_id) ?? renderTypeText(tree, budget);
        texts.set(r.target_type_id, type);
      }
      return {
        fieldLinkId: r.id,
        sourceColumn: r.source_name,
        targetColumn: r.target_name,
        targetType: type,
        sourceBound: r.source_bound,
      };
    });
  }
}
