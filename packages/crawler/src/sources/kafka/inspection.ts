// The inspection of a Kafka schema source (a folder or a Schema Registry): its subjects' schemas
// grouped by topic into kafka datasets, one table each (docs/crawler.md, "Kafka schemas"). The value
// schema's fields are the columns; the key schema's column names are the `key_columns` attribute.
import { parseFilters, tableSelected } from '../../inspect/filters.js';
import { emptyTable } from '../../inspect/assemble.js';
import type { InspectedDatabase, InspectedTable, InspectionFilters, SourceProblem } from '../../model.js';
import { sourceInspection } from '../inspection.js';
import { compareText } from '../../normalise/type-log.js';
import { schemaColumns } from './columns.js';
import {
  FLAVOR_OF_FORMAT,
  type MappedSchema,
  type SchemaDocument,
  type SchemaFormat,
} from './schema-columns.js';
import { placeSubject, roleOfSubject, type SubjectPlace } from './subjects.js';

/** One subject's latest schema (or one topic file's schema). */
export interface SubjectSchema {
  subject: string;
  document: SchemaDocument;
}

interface Side {
  subject: string;
  format: SchemaFormat;
  mapped: MappedSchema;
  place: SubjectPlace;
}

/** What the source is, for the inspection's header. */
export interface SourceHeader {
  driver: string;
  product: 'Kafka schemas' | 'Schema Registry';
  version: string;
  /** The folder or the registry URL (without secrets). */
  database: string;
}

/** The format most subjects use (ties: avro, then json, then protobuf): the source's flavor. */
export function mainFormat(formats: readonly SchemaFormat[]): SchemaFormat {
  const order: SchemaFormat[] = ['avro', 'json', 'protobuf'];
  const count = (format: SchemaFormat) => formats.filter((f) => f === format).length;
  return order.reduce((best, format) => (count(format) > count(best) ? format : best), 'avro');
}

/** A dataset of a message schema as a table: its columns, nothing of a database's keys or partitions. */
export function datasetTable(
  name: string,
  comment: string | null,
  columns: InspectedTable['columns'],
): InspectedTable {
  return { ...emptyTable('', name, 'table', comment), columns };
}

function tableOf(
  dataset: string,
  value: Side | undefined,
  key: Side | undefined,
  sourceFormat: SchemaFormat,
): InspectedTable {
  const main = (value ?? key) as Side;
  const format = main.format;
  return {
    placement: {
      kind: 'kafka',
      object_name: dataset,
      attributes: {
        topic: main.place.topic,
        format,
        key_columns: key?.mapped.columns.map((c) => c.name) ?? [],
      },
      ...(format === sourceFormat ? {} : { flavor: FLAVOR_OF_FORMAT[format] }),
    },
    ...datasetTable(dataset, value?.mapped.comment ?? null, value?.mapped.columns ?? []),
  };
}

/**
 * The inspection of a set of subjects: mapped, placed by topic (subjects.ts), filtered by
 * --tables/--exclude-tables on the dataset names. `requests`: what the source read (files, HTTP calls).
 */
export function inspectSubjects(
  header: SourceHeader,
  subjects: readonly SubjectSchema[],
  readProblems: readonly SourceProblem[],
  filters: InspectionFilters,
  requests: number,
): InspectedDatabase {
  const problems: SourceProblem[] = [...readProblems];
  const datasets = new Map<string, { value?: Side; key?: Side }>();
  const sorted = [...subjects].sort((a, b) => compareText(a.subject, b.subject));
  for (const { subject, document } of sorted) {
    const mapped = schemaColumns(document, roleOfSubject(subject));
    problems.push(...mapped.problems);
    if (mapped.columns.length === 0 && mapped.problems.length > 0) continue;
    const place = placeSubject(subject, mapped.record_name);
    const sides = datasets.get(place.dataset) ?? {};
    const taken = sides[place.role];
    if (taken !== undefined) {
      problems.push({
        path: document.path,
        reason: `the ${place.role} schema of '${place.dataset}' is already read from ${taken.subject}; this one is left out`,
      });
      continue;
    }
    sides[place.role] = { subject, format: document.format, mapped, place };
    datasets.set(place.dataset, sides);
  }
  const parsed = parseFilters(filters);
  const selected = [...datasets].filter(([name]) => tableSelected(parsed, '', name));
  const sourceFormat = mainFormat(
    selected
      .flatMap(([, sides]) => [sides.value, sides.key])
      .filter((s) => s !== undefined)
      .map((s) => s.format),
  );
  const tables = selected
    .map(([name, sides]) => tableOf(name, sides.value, sides.key, sourceFormat))
    .sort((a, b) => compareText(a.name, b.name));
  return sourceInspection({
    dialect: header.driver,
    flavor: FLAVOR_OF_FORMAT[sourceFormat],
    server: { product: header.product, version: header.version },
    database: header.database,
    filters,
    tables,
    problems,
    reads: requests,
  });
}
