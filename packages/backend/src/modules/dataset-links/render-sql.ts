// The SQL text of a hop (AIDE v2 §9.5) in each compute engine's dialect: identifiers quoted, types
// written as the engine spells them. Pure functions: the same input always gives the same text.
import { fieldLinkRole, type RenderSqlResult } from '@aide/schemas';

export type Dialect = 'spark' | 'impala';
type Warning = RenderSqlResult['warnings'][number];

/** `a.b` → `` `a`.`b` `` (a backtick inside a name is doubled). */
export function quoteName(...parts: string[]): string {
  return parts.map((p) => `\`${p.replaceAll('`', '``')}\``).join('.');
}

const SPARK_TYPES: Readonly<Record<string, string>> = {
  long: 'bigint',
  timestamptz: 'timestamp',
  timestamp_ntz: 'timestamp_ntz',
  uuid: 'string',
  time: 'string',
  text: 'string',
};

const IMPALA_SCALARS: Readonly<Record<string, string>> = {
  int: 'INT',
  integer: 'INT',
  long: 'BIGINT',
  bigint: 'BIGINT',
  smallint: 'SMALLINT',
  tinyint: 'TINYINT',
  float: 'FLOAT',
  double: 'DOUBLE',
  boolean: 'BOOLEAN',
  date: 'DATE',
  timestamp: 'TIMESTAMP',
  timestamptz: 'TIMESTAMP',
  string: 'STRING',
  text: 'STRING',
  uuid: 'STRING',
  time: 'STRING',
  binary: 'BINARY',
};

/**
 * A rendered type text (the target flavor's template output, e.g. Iceberg's `decimal(12,2)`,
 * `list<string>`, `timestamptz`) as the engine writes it in a CAST; null when the engine cannot cast to it.
 */
export function dialectType(dialect: Dialect, text: string): string | null {
  const trimmed = text.trim();
  if (dialect === 'spark') {
    return trimmed
      .replace(/\blist</g, 'array<')
      .replace(/\bfixed\(\s*\d+\s*\)/g, 'binary')
      .replace(/\b[a-z_]+\b(?![(:])/g, (word) => SPARK_TYPES[word] ?? word);
  }
  const lower = trimmed.toLowerCase();
  const sized = /^(decimal|numeric|varchar|char)\s*\(([\d\s,]+)\)$/.exec(lower);
  if (sized) {
    const name = sized[1] === 'numeric' ? 'DECIMAL' : sized[1].toUpperCase();
    return `${name}(${sized[2].replace(/\s/g, '')})`;
  }
  if (/^fixed\(\s*\d+\s*\)$/.test(lower)) return 'BINARY';
  return IMPALA_SCALARS[lower] ?? null;
}

/** Where a source column is read from: a plain column, or a path inside a CDC envelope. */
export interface SourceReader {
  /** The after-image path of the CDC envelope (`after`, `payload.after`); null: plain columns. */
  afterPath: string[] | null;
  /** The topic carries JSON text (read with get_json_object) rather than a decoded struct. */
  json: boolean;
}

export function sourceExpression(reader: SourceReader, column: string): string {
  if (!reader.afterPath) return quoteName(column);
  if (reader.json) {
    const path = [...reader.afterPath, column].join('.').replaceAll("'", "''");
    return `get_json_object(${quoteName('payload')}, '$.${path}')`;
  }
  return quoteName('payload', ...reader.afterPath, column);
}

export interface Projection {
  fieldLinkId: string;
  sourceColumn: string;
  targetColumn: string;
  /** The target column's rendered type (target flavor's templates); null when unbound. */
  targetType: string | null;
  sourceBound: boolean;
}

/** A field link as render-sql reads it: its target field and its transformations. */
export interface RenderableLink {
  fieldLinkId: string;
  targetFieldId: string;
  targetColumn: string;
  transformations: readonly { type: string; subtype?: string | null }[];
}

/** The subtype that makes a link `derived` (its first DIRECT transformation other than IDENTITY). */
const derivedBy = (l: RenderableLink) =>
  l.transformations.find((t) => t.type === 'DIRECT' && t.subtype !== 'IDENTITY')?.subtype ?? 'transformation';

/**
 * The one-source rule of `SELECT source AS target` (ADR 0052): a target column is rendered from its one
 * direct source when that source is an identity; INDIRECT-only links (a filter, a join key) feed no
 * value and are left out silently. A column with several direct sources, or a direct transformation
 * other than IDENTITY (an aggregate), is not renderable: one `FIELD_NOT_RENDERABLE` warning per link.
 * Answers the ids of the links to render.
 */
export function renderableLinks(links: readonly RenderableLink[], warnings: Warning[]): Set<string> {
  const byTarget = new Map<string, RenderableLink[]>();
  for (const l of links.filter((x) => fieldLinkRole(x.transformations) !== 'indirect')) {
    const same = byTarget.get(l.targetFieldId);
    if (same) same.push(l);
    else byTarget.set(l.targetFieldId, [l]);
  }
  const rendered = new Set<string>();
  for (const direct of byTarget.values()) {
    const [only] = direct;
    if (direct.length === 1 && fieldLinkRole(only.transformations) === 'copy') {
      rendered.add(only.fieldLinkId);
      continue;
    }
    for (const l of direct) {
      warnings.push({
        code: 'FIELD_NOT_RENDERABLE',
        field_link_id: l.fieldLinkId,
        field_name: l.targetColumn,
        detail:
          direct.length > 1
            ? `The column has ${direct.length} direct sources: SELECT source AS target takes one.`
            : `The column is a ${derivedBy(l)} of its source, not a copy.`,
      });
    }
  }
  return rendered;
}

/**
 * `INSERT INTO <target> (<columns>)` / `SELECT` / one `CAST(<source> AS <type>) AS <column>` per
 * projection / `FROM <source>;`. Projections that cannot be rendered are left out with a warning.
 */
export function renderStatement(
  dialect: Dialect,
  target: string,
  source: string,
  reader: SourceReader,
  projections: readonly Projection[],
  warnings: Warning[],
): string {
  const lines: string[] = [];
  const columns: string[] = [];
  for (const p of projections) {
    if (!p.sourceBound || p.targetType === null) {
      warnings.push({
        code: 'FIELD_LINK_BROKEN',
        field_link_id: p.fieldLinkId,
        field_name: p.targetColumn,
        detail: `${p.sourceBound ? 'The target' : 'The source'} field is not bound in the link's pinned version.`,
      });
      continue;
    }
    const expression = sourceExpression(reader, p.sourceColumn);
    const type = dialectType(dialect, p.targetType);
    if (type === null) {
      warnings.push({
        code: 'TYPE_NOT_CASTABLE',
        field_link_id: p.fieldLinkId,
        field_name: p.targetColumn,
        detail: `${dialect} cannot CAST to ${p.targetType}: the column is selected as it is.`,
      });
      lines.push(`  ${expression} AS ${quoteName(p.targetColumn)}`);
    } else {
      lines.push(`  CAST(${expression} AS ${type}) AS ${quoteName(p.targetColumn)}`);
    }
    columns.push(quoteName(p.targetColumn));
  }
  const into = columns.length > 0 ? `INSERT INTO ${target} (${columns.join(', ')})` : `INSERT INTO ${target}`;
  const select = lines.length > 0 ? lines.join(',\n') : '  *';
  return `${into}\nSELECT\n${select}\nFROM ${source};`;
}
