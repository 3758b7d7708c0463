// Checks Kafka schema type trees against the flavors they are published in: `avro` and `json_schema`
// as seeded in packages/backend/seeds/<flavor>.yaml (codes, params against each params schema, the
// slots the seed names), `protobuf` against the codes of the issue 24 brief §A.1 (its seed is written
// in parallel) or its seed file once it exists.
import { existsSync, readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import type { InspectedDatabase, InspectionFilters, TypeNode } from '../../src/model.js';

/** No --schemas/--tables filter. */
export const NO_FILTERS: InspectionFilters = {
  schemas: [],
  exclude_schemas: [],
  tables: [],
  exclude_tables: [],
  include_partitions: false,
};

const PROTOBUF_CODES = [
  ...'double float int32 int64 uint32 uint64 sint32 sint64 fixed32 fixed64 sfixed32 sfixed64 bool string bytes'.split(
    ' ',
  ),
  ...'enum message repeated map oneof timestamp duration any struct value list_value empty field_mask date'.split(
    ' ',
  ),
  ...'double_value float_value int64_value uint64_value int32_value uint32_value bool_value string_value bytes_value'.split(
    ' ',
  ),
];

/** The child slots each flavor's seed names (`field:<name>` for record, object, message, union members). */
const SLOTS: Record<string, RegExp> = {
  avro: /^(element|value|field:.+)$/,
  json_schema: /^(element|value|field:.+)$/,
  protobuf: /^(item|key|value|field:.+)$/,
};

const ajv = new Ajv2020({ allErrors: true, strict: false });

export class KafkaFlavor {
  private readonly validators = new Map<string, ValidateFunction | null>();

  constructor(readonly flavor: 'avro' | 'json_schema' | 'protobuf') {
    const seed = new URL(`../../../backend/seeds/${flavor}.yaml`, import.meta.url);
    if (!existsSync(seed)) {
      for (const code of PROTOBUF_CODES) this.validators.set(code, null);
      return;
    }
    const file = parse(readFileSync(seed, 'utf8')) as { types: { code: string; params_schema?: object }[] };
    for (const type of file.types) {
      this.validators.set(
        type.code,
        type.params_schema === undefined ? null : ajv.compile(type.params_schema),
      );
    }
  }

  get codes(): string[] {
    return [...this.validators.keys()];
  }

  /** What publish would refuse in a type tree (empty when none). */
  problems(type: TypeNode, path = '$'): string[] {
    if (!this.validators.has(type.data_type))
      return [`${path}: no data type '${type.data_type}' in ${this.flavor}`];
    const validate = this.validators.get(type.data_type) ?? null;
    const problems: string[] = [];
    if (validate === null && type.params !== undefined && this.flavor !== 'protobuf') {
      problems.push(`${path}: ${type.data_type} takes no params, got ${JSON.stringify(type.params)}`);
    }
    if (validate !== null && !validate(type.params ?? {})) {
      problems.push(
        `${path}: ${type.data_type} ${JSON.stringify(type.params)}: ${ajv.errorsText(validate.errors)}`,
      );
    }
    for (const child of type.children ?? []) {
      if (!SLOTS[this.flavor].test(child.slot)) problems.push(`${path}: bad slot '${child.slot}'`);
      problems.push(...this.problems(child.type, `${path}.${child.slot}`));
    }
    return problems;
  }
}

/** Every code used in a type tree. */
export const codesOf = (type: TypeNode): string[] => [
  type.data_type,
  ...(type.children ?? []).flatMap((c) => codesOf(c.type)),
];

/** What publish would refuse in a whole inspection: each table in its own flavor. */
export function inspectionProblems(db: InspectedDatabase): string[] {
  const flavors = new Map<string, KafkaFlavor>();
  const flavorOf = (code: string) => {
    let flavor = flavors.get(code);
    if (flavor === undefined) {
      flavor = new KafkaFlavor(code as 'avro');
      flavors.set(code, flavor);
    }
    return flavor;
  };
  return db.tables.flatMap((table) =>
    table.columns.flatMap((column) =>
      column.type === null
        ? [`${table.name}.${column.name}: untyped (${column.native_type})`]
        : flavorOf(table.placement?.flavor ?? db.flavor).problems(
            column.type,
            `${table.name}.${column.name}`,
          ),
    ),
  );
}
