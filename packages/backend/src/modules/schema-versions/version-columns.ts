import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DataTypesLookup } from '../data-types/data-types.lookup.js';
import {
  FieldBindingsRepository,
  type VersionColumnRow,
} from '../field-bindings/field-bindings.repository.js';
import { TypeInstancesLookup, type TypeTreeRow } from '../type-instances/type-instances.lookup.js';

/**
 * The columns of stored versions and the nodes of their type trees, in three queries whatever the
 * number of versions: the columns with the node each type starts at (most types are that node alone),
 * the nodes below those, and the data types met. The nodes are the rows `TypeInstancesLookup
 * .subtrees` returns for the bound nodes: each bound node once at depth 0, then the nodes below by
 * depth, ordinal and slot, at most MAX_TYPE_TREE_DEPTH levels down. `typeVersions` is the row_version
 * each data type met was read at (the stored read shapes record it, ADR 0029).
 */
@Injectable()
export class VersionColumns {
  constructor(
    private readonly bindings: FieldBindingsRepository,
    private readonly typeInstances: TypeInstancesLookup,
    private readonly dataTypes: DataTypesLookup,
  ) {}

  async read(
    schemaIds: readonly string[],
    m: EntityManager,
  ): Promise<{ columns: VersionColumnRow[]; nodes: TypeTreeRow[]; typeVersions: Map<string, number> }> {
    const columns = await this.bindings.columnsOfSchemas(schemaIds, m);
    const below = await this.typeInstances.descendantsOfSchemas(schemaIds, m);
    const types = await this.dataTypes.renderInfoOf(
      [...new Set([...columns.map((c) => c.type_data_type_id), ...below.map((r) => r.data_type_id)])].filter(
        (id): id is string => id !== null,
      ),
      m,
    );
    const typeOf = (id: string) => {
      const type = types.get(id);
      if (type === undefined) throw new Error(`data type ${id} missing`);
      return type;
    };
    const nodes: TypeTreeRow[] = [];
    const bound = new Set<string>();
    for (const c of columns) {
      if (c.type_instance_id === null || c.type_data_type_id === null || bound.has(c.type_instance_id))
        continue;
      bound.add(c.type_instance_id);
      const type = typeOf(c.type_data_type_id);
      nodes.push({
        id: c.type_instance_id,
        parent_id: c.type_parent_id,
        depth: 0,
        data_type_id: c.type_data_type_id,
        type_params: c.type_params,
        slot: c.type_slot,
        data_type_code: type.code,
        render_template: type.render_template,
      });
    }
    for (const row of below) {
      const type = typeOf(row.data_type_id);
      nodes.push({ ...row, data_type_code: type.code, render_template: type.render_template });
    }
    const typeVersions = new Map([...types].map(([id, t]) => [id, t.row_version]));
    return { columns, nodes, typeVersions };
  }
}
