import type { CreateDataType, DataType, ListQuery, Page, UpdateDataType } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user.js';
import { assertUniqueInBatch } from '../../common/crud/batch.js';
import type { CrudService } from '../../common/crud/crud-service.js';
import { mapPage } from '../../common/crud/list.js';
import { splitUpdate } from '../../common/crud/update-input.js';
import { AppError } from '../../common/errors/app-error.js';
import { Transactions } from '../../database/transactions.js';
import { SystemFlavorsLookup } from '../system-flavors/system-flavors.lookup.js';
import { flavorMismatch } from '../system-flavors/flavor-mismatch.js';
import type { DataTypeEntity } from './data-type.entity.js';
import { checkDataTypeDefinition } from './data-type-definition.js';
import { toDataType } from './data-type.mapper.js';
import { DataTypesRepository } from './data-types.repository.js';

function definitionOf(input: CreateDataType): Partial<DataTypeEntity> {
  const checked = checkDataTypeDefinition(input.params_schema, input.render_template);
  return {
    ...input,
    params_schema: checked.params_schema as unknown as Record<string, unknown>,
    render_template: checked.render_template ?? null,
  };
}

@Injectable()
export class DataTypesService implements CrudService<DataType, CreateDataType, UpdateDataType> {
  constructor(
    private readonly dataTypes: DataTypesRepository,
    private readonly flavors: SystemFlavorsLookup,
    private readonly tx: Transactions,
  ) {}

  async list(query: ListQuery): Promise<Page<DataType>> {
    return mapPage(await this.dataTypes.crud.findPage(query), toDataType);
  }

  get(id: string): Promise<DataType> {
    return this.dataTypes.crud.getActivePrepared(id).then(toDataType);
  }

  private async assertFlavor(flavorId: string, m: EntityManager): Promise<void> {
    await this.flavors.lockActive(flavorId, m);
  }

  create(input: CreateDataType, actor: AuthUser): Promise<DataType> {
    const values = definitionOf(input);
    return this.tx.run(async (m) => {
      await this.assertFlavor(input.system_flavor_id, m);
      return toDataType(await this.dataTypes.crud.insert(values, actor.id, m));
    });
  }

  createMany(items: CreateDataType[], actor: AuthUser): Promise<DataType[]> {
    assertUniqueInBatch(items, (i) => `${i.system_flavor_id}/${i.code}`, 'DATA_TYPE_ALREADY_EXISTS');
    const values = items.map(definitionOf);
    return this.tx.run(async (m) => {
      const flavors = await this.flavors.lockActiveMany(
        items.map((i) => i.system_flavor_id),
        m,
      );
      if (items.some((i) => !flavors.has(i.system_flavor_id))) throw new AppError('SYSTEM_FLAVOR_NOT_FOUND');
      return (await this.dataTypes.crud.insertMany(values, actor.id, m)).map(toDataType);
    });
  }

  update(id: string, input: UpdateDataType, ifMatch: number | undefined, actor: AuthUser): Promise<DataType> {
    const { changes, version } = splitUpdate(input, ifMatch);
    return this.tx.run(async (m) => {
      const flavorChange = changes.system_flavor_id !== undefined;
      // Locked when the flavor may change: no type instance can start using the type meanwhile.
      const current = await this.dataTypes.crud.getActive(id, m, flavorChange ? 'update' : undefined);
      const values: Partial<DataTypeEntity> = { ...changes };
      if (changes.params_schema !== undefined || changes.render_template !== undefined) {
        // The template is checked against the params it may read, so both are checked together.
        const template =
          changes.render_template !== undefined ? changes.render_template : current.render_template;
        const checked = checkDataTypeDefinition(changes.params_schema ?? current.params_schema, template);
        values.params_schema = checked.params_schema as unknown as Record<string, unknown>;
        values.render_template = checked.render_template ?? null;
      }
      if (changes.system_flavor_id !== undefined) {
        await this.assertFlavor(changes.system_flavor_id, m);
        // Moving a type in use would leave its type trees of two flavors (type-tree-rules.ts).
        if (
          changes.system_flavor_id !== current.system_flavor_id &&
          (await this.dataTypes.countTypeInstances(id, m)) > 0
        ) {
          throw flavorMismatch('The data type is used by type instances: its flavor cannot change.', {
            data_type: current.code,
            data_type_flavor_id: current.system_flavor_id,
            requested_flavor_id: changes.system_flavor_id,
          });
        }
      }
      return toDataType(await this.dataTypes.crud.update(id, values, version, actor.id, m));
    });
  }

  remove(id: string, actor: AuthUser): Promise<DataType> {
    return this.tx.run(async (m) => toDataType(await this.dataTypes.crud.softDelete(id, actor.id, m)));
  }

  restore(id: string, actor: AuthUser): Promise<DataType> {
    return this.tx.run(async (m) => {
      const row = await this.dataTypes.crud.findAny(id, m);
      if (row?.deleted_at) await this.assertFlavor(row.system_flavor_id, m);
      return toDataType(await this.dataTypes.crud.restore(id, actor.id, m));
    });
  }
}
