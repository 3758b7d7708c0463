// Avro and Protobuf schema evolution through the one classifier (ADR 0037): two versions of a real
// schema, read by the crawler's Kafka mapping, classed by the format's own rules (`flavor` option).
import { describe, expect, test } from '@jest/globals';
import { diffVersions } from '../src/diff/diff.js';
import { versionOfTable } from '../src/registry/model.js';
import { schemaColumns } from '../src/sources/kafka/columns.js';
import { datasetTable } from '../src/sources/kafka/inspection.js';
import type { SchemaDocument, SchemaFormat } from '../src/sources/kafka/schema-columns.js';
import type { InspectedTable } from '../src/model.js';

const tableOf = (format: SchemaFormat, text: string): InspectedTable => {
  const document: SchemaDocument = { format, path: 'v', text, references: [] };
  const mapped = schemaColumns(document, 'value');
  expect(mapped.problems).toEqual([]);
  return datasetTable('t', null, mapped.columns);
};
const avro = (extra: unknown[]) =>
  tableOf(
    'avro',
    JSON.stringify({ type: 'record', name: 'Order', fields: [{ name: 'id', type: 'string' }, ...extra] }),
  );
const classes = (before: InspectedTable, after: InspectedTable, flavor: string) =>
  diffVersions(versionOfTable(before), versionOfTable(after), { flavor }).map((c) => [
    c.category,
    c.name,
    c.compatibility,
  ]);

describe('Kafka schema evolution classes', () => {
  test('Avro: a field added with a default is compatible, one without (even a union with null) is breaking', () => {
    const v1 = avro([]);
    expect(classes(v1, avro([{ name: 'note', type: ['null', 'string'], default: null }]), 'avro')).toEqual([
      ['column_added', 'note', 'compatible'],
    ]);
    expect(classes(v1, avro([{ name: 'qty', type: 'int', default: 1 }]), 'avro')).toEqual([
      ['column_added', 'qty', 'compatible'],
    ]);
    expect(classes(v1, avro([{ name: 'note', type: ['null', 'string'] }]), 'avro')).toEqual([
      ['column_added', 'note', 'breaking'],
    ]);
    expect(classes(v1, avro([{ name: 'qty', type: 'int' }]), 'avro')).toEqual([
      ['column_added', 'qty', 'breaking'],
    ]);
    expect(classes(avro([{ name: 'qty', type: 'int' }]), v1, 'avro')).toEqual([
      ['column_removed', 'qty', 'breaking'],
    ]);
  });

  test('Protobuf: a field added is compatible', () => {
    const v1 = tableOf('protobuf', 'syntax = "proto3"; message M { string id = 1; }');
    const v2 = tableOf('protobuf', 'syntax = "proto3"; message M { string id = 1; int64 qty = 2; }');
    expect(classes(v1, v2, 'protobuf')).toEqual([['column_added', 'qty', 'compatible']]);
  });
});
