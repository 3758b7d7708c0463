// The text form of a crawl report, for people: one block per dataset with differences (new, changed,
// removed), one line per change marked compatible or BREAKING, the verdict of the dataset's
// compatibility level and its violations, then a summary.
import type { Change, DatasetDiff } from '../diff/diff.js';
import type { CheckConstraint, KeyConstraint } from '../model.js';
import { displayName, problemLines, quoteName, renderTypeNode } from '../output/text.js';
import type { VersionColumn, VersionForeignKey, VersionIndex } from '../registry/model.js';
import { levelCheckText, violationText } from '../registry/compatibility.js';
import type { CrawlReport, ReportDataset } from './report.js';

type Scalar = string | number | boolean | null | undefined;
const show = (value: unknown): string => {
  const scalar = value as Scalar;
  return scalar === null || scalar === undefined ? '(none)' : String(scalar);
};
const quoted = (value: unknown): string =>
  value === null || value === undefined ? '(none)' : JSON.stringify(value);
const names = (list: readonly string[] | null) => (list ?? []).map(quoteName).join(', ');
const key = (k: KeyConstraint | null) => (k === null ? '(none)' : `(${names(k.columns)})`);

type TypeSide = Pick<VersionColumn, 'type' | 'native_type' | 'rendered_type'>;

/**
 * A type as people read it: the registry's own text (`rendered_type`) on the registry's side, the
 * native text as the database prints it on the database's side; the normalised tree (params in
 * their declared order) only when neither is known.
 */
export function typeLabel(side: TypeSide): string {
  if (side.type === null) return `${side.native_type} (unmapped)`;
  if (side.rendered_type !== undefined && side.rendered_type !== null && side.rendered_type !== '')
    return side.rendered_type;
  if (side.native_type !== '') return side.native_type;
  return renderTypeNode(side.type);
}

function columnText(column: VersionColumn): string {
  const type = typeLabel(column);
  const parts = [quoteName(column.name), type, column.nullable ? 'NULL' : 'NOT NULL'];
  if (column.default !== null) parts.push(`DEFAULT ${column.default}`);
  if (column.identity !== null) parts.push(`IDENTITY ${column.identity.toUpperCase().replace('_', ' ')}`);
  if (column.generated !== null) parts.push(`GENERATED (${column.generated})`);
  return parts.join(' ');
}

/** Both sides of a type change; the native texts added when the two labels alone read the same. */
function typeChangeText(before: TypeSide, after: TypeSide): string {
  const [from, to] = [typeLabel(before), typeLabel(after)];
  if (from !== to) return `${from} → ${to}`;
  return `${from} [${before.native_type}] → ${to} [${after.native_type}]`;
}

const fkText = (fk: VersionForeignKey) =>
  `(${names(fk.columns)}) → ${quoteName(fk.referenced.schema)}.${quoteName(fk.referenced.table)}` +
  ` (${names(fk.referenced.columns)}) ON UPDATE ${fk.on_update} ON DELETE ${fk.on_delete}`;
const indexText = (index: VersionIndex) =>
  index.definition ??
  `${index.unique ? 'UNIQUE ' : ''}${index.method ?? ''} (${index.expression ?? names(index.columns)})`.trim();

/** What changed, in one line (without the class). */
export function describeChange(change: Change): string {
  const name = change.name === null ? '' : quoteName(change.name);
  const { before, after } = change;
  const rename =
    change.possible_rename === undefined
      ? ''
      : ` (possible rename ${quoteName(change.possible_rename.from)} → ${quoteName(change.possible_rename.to)})`;
  switch (change.category) {
    case 'table_added':
      return `new ${show(after).replace('_', ' ')}`;
    case 'table_removed':
      return `${show(before).replace('_', ' ')} no longer in the database (the dataset is kept)`;
    case 'table_kind_changed':
      return `kind ${show(before)} → ${show(after)}`;
    case 'table_comment_changed':
      return `table comment ${quoted(before)} → ${quoted(after)}`;
    case 'view_definition_changed':
      return 'view definition changed';
    case 'column_added':
      return `column added: ${columnText(after as VersionColumn)}${rename}`;
    case 'column_removed':
      return `column removed: ${columnText(before as VersionColumn)}${rename}`;
    case 'column_moved':
      return `column ${name} moved from position ${show(before)} to ${show(after)}`;
    case 'type_changed':
      return `column ${name} type ${typeChangeText(before as TypeSide, after as TypeSide)}`;
    case 'nullability_changed':
      return `column ${name} ${before ? 'NULL' : 'NOT NULL'} → ${after ? 'NULL' : 'NOT NULL'}`;
    case 'default_changed':
      return `column ${name} default ${show(before)} → ${show(after)}`;
    case 'identity_changed':
      return `column ${name} identity ${show(before)} → ${show(after)}`;
    case 'generated_changed':
      return `column ${name} generated ${show(before)} → ${show(after)}`;
    case 'collation_changed':
      return `column ${name} collation ${show(before)} → ${show(after)}`;
    case 'comment_changed':
      return `column ${name} comment ${quoted(before)} → ${quoted(after)}`;
    case 'primary_key_changed':
      return `primary key ${key(before as KeyConstraint | null)} → ${key(after as KeyConstraint | null)}`;
    case 'unique_added':
      return `unique ${name} ${key(after as KeyConstraint)} added`;
    case 'unique_removed':
      return `unique ${name} ${key(before as KeyConstraint)} removed`;
    case 'foreign_key_added':
      return `foreign key ${name} added: ${fkText(after as VersionForeignKey)}`;
    case 'foreign_key_removed':
      return `foreign key ${name} removed: ${fkText(before as VersionForeignKey)}`;
    case 'foreign_key_changed':
      return `foreign key ${name}: ${fkText(before as VersionForeignKey)} → ${fkText(after as VersionForeignKey)}`;
    case 'index_added':
      return `index ${name} added: ${indexText(after as VersionIndex)}`;
    case 'index_removed':
      return `index ${name} removed: ${indexText(before as VersionIndex)}`;
    case 'index_changed':
      return `index ${name}: ${indexText(before as VersionIndex)} → ${indexText(after as VersionIndex)}`;
    case 'check_added':
      return `check ${name} added: ${(after as CheckConstraint).expression}`;
    case 'check_removed':
      return `check ${name} removed: ${(before as CheckConstraint).expression}`;
    case 'check_changed':
      return `check ${name}: ${(before as CheckConstraint).expression} → ${(after as CheckConstraint).expression}`;
    case 'constraint_renamed':
      return `constraint renamed ${show(before)} → ${show(after)}`;
  }
}

function datasetHeader(diff: DatasetDiff): string {
  const name = displayName(diff);
  switch (diff.status) {
    case 'new':
      return `+ ${name}  new${diff.dataset_id === null ? '' : ' version of a registered dataset'}, ${diff.target?.columns.length ?? 0} columns`;
    case 'removed':
      return `- ${name}  removed from the ${diff.kind === undefined ? 'database' : 'source'} (registry v${show(diff.base_version_num)})`;
    default:
      return `~ ${name}  v${show(diff.base_version_num)}, ${diff.compatibility ?? ''}`;
  }
}

/** The verdict of a changed dataset's level, and each violation on a line of its own. */
function levelLines(diff: ReportDataset): string[] {
  const check = diff.level_check;
  if (check === undefined) return [];
  return [
    `    level     ${levelCheckText(check)}`,
    ...check.violations.map((v) => `      violation  ${violationText(v)}`),
  ];
}

export function renderReportText(report: CrawlReport): string {
  const { summary, system, source } = report;
  const lines: string[] = [];
  const database = source.database === '' ? '' : ` · database ${source.database}`;
  lines.push(
    `AIDE crawl report · system ${system.code} (${system.flavor}) · ${source.server.product} ${source.server.version}${database}`,
  );
  if (report.crawl_run_id !== null) lines.push(`Crawl run ${report.crawl_run_id} · ${report.generated_at}`);
  for (const diff of report.datasets) {
    lines.push('', datasetHeader(diff));
    if (diff.status === 'new' || diff.status === 'removed') continue;
    for (const change of diff.changes) {
      const mark = change.compatibility === 'breaking' ? 'BREAKING  ' : 'compatible';
      lines.push(`    ${mark}  ${describeChange(change)}  — ${change.reason}`);
    }
    lines.push(...levelLines(diff));
  }
  if (report.datasets.length === 0) lines.push('', 'No differences: the registry matches the database.');
  const check = report.compatibility_check;
  if (check?.status === 'not_checked') lines.push('', `Compatibility not checked: ${check.reason ?? ''}`);
  if (report.problems !== undefined) lines.push('', ...problemLines(report.problems));
  lines.push('', 'Summary');
  const d = summary.datasets;
  lines.push(
    `  datasets: ${d.new} new, ${d.changed} changed, ${d.removed} removed, ${d.unchanged} unchanged`,
  );
  const c = summary.changes;
  lines.push(`  changes: ${c.total} (${c.compatible} compatible, ${c.breaking} breaking)`);
  const categories = Object.entries(summary.by_category).map(([category, n]) => `${category} ${n}`);
  if (categories.length > 0) lines.push(`  by category: ${categories.join(', ')}`);
  if (check?.status === 'checked' && check.accepted + check.refused + check.failed > 0) {
    lines.push(
      `  compatibility levels: ${check.accepted} accepted, ${check.refused} refused, ${check.failed} not checked`,
    );
  }
  if (report.unmapped_types.length > 0) {
    const types = report.unmapped_types.map((t) => `${t.native_type} (${t.columns})`).join(', ');
    lines.push(`  unmapped types (${summary.unmapped_columns} columns): ${types}`);
  }
  if (report.datasets.some((diff) => diff.target !== null)) {
    lines.push('', 'Review, then apply the JSON form of this report: aide-crawler apply <report.json>');
  }
  return `${lines.join('\n')}\n`;
}
