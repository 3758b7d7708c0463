// The subset of ChartDB's diagram JSON (its "Export diagram" output, accepted by "Import diagram") that the
// data-model generator writes. Field names, optionality and enums follow ChartDB's zod schemas in
// chartdb/chartdb src/lib/domain/{diagram,db-table,db-field,db-index,db-relationship,db-check-constraint,
// db-custom-type}.ts and src/lib/data/data-types/data-types.ts; the import itself is
// src/lib/export-import-utils.ts (diagramFromJSONInput), which replaces every id and both diagram dates.
import { z } from 'zod';

/** A column type as ChartDB names it (`id` is the name with spaces as underscores). */
export interface ChartDbDataType {
  id: string;
  name: string;
}

/** A table column (ChartDB `DBField`). */
export interface ChartDbField {
  id: string;
  name: string;
  type: ChartDbDataType;
  primaryKey: boolean;
  unique: boolean;
  nullable: boolean;
  increment?: boolean;
  isArray?: boolean;
  createdAt: number;
  characterMaximumLength?: string;
  precision?: number;
  scale?: number;
  default?: string;
  comments?: string;
}

/** ChartDB `IndexType`; other access methods are left out of the index's `type`. */
export const CHARTDB_INDEX_TYPES = ['btree', 'hash', 'gist', 'gin', 'spgist', 'brin'] as const;

/** An index access method ChartDB knows. */
export type ChartDbIndexType = (typeof CHARTDB_INDEX_TYPES)[number];

/** An index (ChartDB `DBIndex`); the primary key's index carries `isPrimaryKey`. */
export interface ChartDbIndex {
  id: string;
  name: string;
  unique: boolean;
  fieldIds: string[];
  createdAt: number;
  type?: ChartDbIndexType;
  isPrimaryKey?: boolean;
}

/** A CHECK constraint (ChartDB `DBCheckConstraint`): the expression without the CHECK keyword. */
export interface ChartDbCheckConstraint {
  id: string;
  expression: string;
  createdAt: number;
}

/** A table or view (ChartDB `DBTable`). */
export interface ChartDbTable {
  id: string;
  name: string;
  schema: string;
  x: number;
  y: number;
  fields: ChartDbField[];
  indexes: ChartDbIndex[];
  checkConstraints?: ChartDbCheckConstraint[];
  color: string;
  isView: boolean;
  isMaterializedView?: boolean;
  createdAt: number;
  comments?: string;
}

/** ChartDB `Cardinality`. */
export type ChartDbCardinality = 'one' | 'many';

/** A foreign key column pair (ChartDB `DBRelationship`); the source is the referencing side. */
export interface ChartDbRelationship {
  id: string;
  name: string;
  sourceSchema: string;
  sourceTableId: string;
  targetSchema: string;
  targetTableId: string;
  sourceFieldId: string;
  targetFieldId: string;
  sourceCardinality: ChartDbCardinality;
  targetCardinality: ChartDbCardinality;
  createdAt: number;
}

/** An enum type (ChartDB `DBCustomType` of kind `enum`). */
export interface ChartDbCustomType {
  id: string;
  schema: string;
  name: string;
  kind: 'enum';
  values: string[];
}

/** A whole diagram (ChartDB `Diagram`), dates as the ISO strings its export writes. */
export interface ChartDbDiagram {
  id: string;
  name: string;
  databaseType: 'postgresql';
  tables: ChartDbTable[];
  relationships: ChartDbRelationship[];
  dependencies: never[];
  areas: never[];
  customTypes: ChartDbCustomType[];
  createdAt: string;
  updatedAt: string;
}

const dataType = z.strictObject({ id: z.string(), name: z.string() });

const field = z.strictObject({
  id: z.string(),
  name: z.string(),
  type: dataType,
  primaryKey: z.boolean(),
  unique: z.boolean(),
  nullable: z.boolean(),
  increment: z.boolean().optional(),
  isArray: z.boolean().optional(),
  createdAt: z.number(),
  characterMaximumLength: z.string().optional(),
  precision: z.number().optional(),
  scale: z.number().optional(),
  default: z.string().optional(),
  comments: z.string().optional(),
});

const index = z.strictObject({
  id: z.string(),
  name: z.string(),
  unique: z.boolean(),
  fieldIds: z.array(z.string()),
  createdAt: z.number(),
  type: z.enum(CHARTDB_INDEX_TYPES).optional(),
  isPrimaryKey: z.boolean().optional(),
});

const table = z.strictObject({
  id: z.string(),
  name: z.string(),
  schema: z.string(),
  x: z.number(),
  y: z.number(),
  fields: z.array(field),
  indexes: z.array(index),
  checkConstraints: z
    .array(z.strictObject({ id: z.string(), expression: z.string(), createdAt: z.number() }))
    .optional(),
  color: z.string(),
  isView: z.boolean(),
  isMaterializedView: z.boolean().optional(),
  createdAt: z.number(),
  comments: z.string().optional(),
});

const cardinality = z.enum(['one', 'many']);

const relationship = z.strictObject({
  id: z.string(),
  name: z.string(),
  sourceSchema: z.string(),
  sourceTableId: z.string(),
  targetSchema: z.string(),
  targetTableId: z.string(),
  sourceFieldId: z.string(),
  targetFieldId: z.string(),
  sourceCardinality: cardinality,
  targetCardinality: cardinality,
  createdAt: z.number(),
});

/**
 * ChartDB's import schema narrowed to what the generator writes. Strict, so that a misspelt or unknown key
 * (which ChartDB would silently drop) fails the data-model test.
 */
export const chartDbDiagramSchema: z.ZodType<ChartDbDiagram> = z.strictObject({
  id: z.string(),
  name: z.string(),
  databaseType: z.literal('postgresql'),
  tables: z.array(table),
  relationships: z.array(relationship),
  dependencies: z.array(z.never()),
  areas: z.array(z.never()),
  customTypes: z.array(
    z.strictObject({
      id: z.string(),
      schema: z.string(),
      name: z.string(),
      kind: z.literal('enum'),
      values: z.array(z.string()),
    }),
  ),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
