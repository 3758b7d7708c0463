import type {
  CreateDatasetSchemaVersion,
  DatasetSchemaVersion,
  ListQuery,
  Page,
  UpdateDatasetSchemaVersion,
} from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user.js';
import type { CrudService } from '../../common/crud/crud-service.js';
import { mapPage } from '../../common/crud/list.js';
import { splitUpdate } from '../../common/crud/update-input.js';
import { AppError } from '../../common/errors/app-error.js';
import { Transactions } from '../../database/transactions.js';
import { DatasetsLookup } from '../datasets/datasets.lookup.js';
import { TypeInstancesLookup } from '../type-instances/type-instances.lookup.js';
import { assertReadableColumnTypes } from '../type-instances/type-tree.js';
import type { DatasetSchemaEntity } from './dataset-schema.entity.js';
import { toDatasetSchema } from './dataset-schema.mapper.js';
import { DatasetSchemasRepository } from './dataset-schemas.repository.js';

/**
 * Version headers. Numbering is gapless under concurrency: the server numbers a version when the
 * client does not, a client-supplied number must be the next one, and only the latest empty version
 * can be deleted. A version with bindings is history and cannot change.
 */
@Injectable()
export class DatasetSchemasService implements CrudService<
  DatasetSchemaVersion,
  CreateDatasetSchemaVersion,
  UpdateDatasetSchemaVersion
> {
  constructor(
    private readonly schemas: DatasetSchemasRepository,
    private readonly datasets: DatasetsLookup,
    private readonly typeInstances: TypeInstancesLookup,
    private readonly tx: Transactions,
  ) {}

  async list(query: ListQuery): Promise<Page<DatasetSchemaVersion>> {
    return mapPage(await this.schemas.crud.findPage(query), toDatasetSchema);
  }

  get(id: string): Promise<DatasetSchemaVersion> {
    return this.schemas.crud.getActivePrepared(id).then(toDatasetSchema);
  }

  /** Inside a transaction: the dataset locked for versioning, the version number chosen. */
  async createIn(
    m: EntityManager,
    input: Parameters<DatasetSchemasService['insertNext']>[1],
    actor: AuthUser,
  ): Promise<DatasetSchemaEntity> {
    await this.datasets.lockActive(input.dataset_id, m);
    await this.schemas.lockVersioning(input.dataset_id, m);
    return this.insertNext(m, input, actor);
  }

  /**
   * The header of the next version, for a caller that holds the dataset (FOR SHARE) and its versioning
   * lock in `m`.
   */
  async insertNext(
    m: EntityManager,
    input: {
      dataset_id: string;
      version_num?: number | undefined;
      schema?: unknown;
      extra?: unknown;
      note?: unknown;
    },
    actor: AuthUser,
    /** The table's keys, indexes and kind, when a whole version is published. */
    structure?: Partial<DatasetSchemaEntity>,
  ): Promise<DatasetSchemaEntity> {
    const next = await this.schemas.nextVersionNum(input.dataset_id, m);
    const version_num = input.version_num ?? next;
    // A client may name the number it expects, but only the next one: any other would leave a gap
    // (and a huge one would leave no numbers for later versions).
    if (version_num !== next) {
      if (await this.schemas.findByVersion(input.dataset_id, version_num, m)) {
        throw new AppError('DATASET_SCHEMA_ALREADY_EXISTS', undefined, {
          version_num,
          next_version_num: next,
        });
      }
      throw new AppError('DATASET_SCHEMA_VERSION_NOT_NEXT', `The next version of this dataset is ${next}.`, {
        version_num,
        next_version_num: next,
      });
    }
    return this.schemas.crud.insert(
      {
        dataset_id: input.dataset_id,
        version_num,
        schema_: (input.schema ?? null) as Record<string, unknown> | null,
        extra: (input.extra ?? null) as Record<string, unknown> | null,
        note: (input.note ?? null) as string | null,
        ...structure,
      },
      actor.id,
      m,
    );
  }

  create(input: CreateDatasetSchemaVersion, actor: AuthUser): Promise<DatasetSchemaVersion> {
    return this.tx.run(async (m) => toDatasetSchema(await this.createIn(m, input, actor)));
  }

  private async assertMutable(id: string, m: EntityManager): Promise<void> {
    await this.schemas.crud.getActive(id, m, 'update');
    if (await this.schemas.hasBindings(id, m)) throw new AppError('DATASET_SCHEMA_IMMUTABLE');
  }

  update(
    id: string,
    input: UpdateDatasetSchemaVersion,
    ifMatch: number | undefined,
    actor: AuthUser,
  ): Promise<DatasetSchemaVersion> {
    const { changes, version } = splitUpdate(input, ifMatch);
    const { schema, ...rest } = changes;
    const values: Partial<DatasetSchemaEntity> = { ...rest };
    if (schema !== undefined) values.schema_ = schema;
    return this.tx.run(async (m) => {
      await this.assertMutable(id, m);
      return toDatasetSchema(await this.schemas.crud.update(id, values, version, actor.id, m));
    });
  }

  /**
   * A version with bindings is history, unless it cannot be read whole (rows of an older release: a
   * bound type tree that does not render or is past the limits, type-tree-rules.ts): such a version is
   * no history a reader could use, and the superuser this route is for may delete it with its bindings.
   */
  private async assertDeletable(id: string, m: EntityManager): Promise<void> {
    await this.schemas.crud.getActive(id, m, 'update');
    if (!(await this.schemas.hasBindings(id, m))) return;
    const roots = await this.schemas.boundTypesInOrder(id, m);
    const rows = await this.typeInstances.subtrees(
      roots.filter((r): r is string => r !== null),
      m,
    );
    try {
      assertReadableColumnTypes(rows, roots);
    } catch (error) {
      if (error instanceof AppError) return;
      throw error;
    }
    throw new AppError('DATASET_SCHEMA_IMMUTABLE');
  }

  /**
   * Only the latest version can be deleted (numbering stays gapless), and only while it is empty or
   * cannot be read whole (`assertDeletable`).
   */
  remove(id: string): Promise<DatasetSchemaVersion> {
    return this.tx.run(async (m) => {
      const header = await this.schemas.crud.getActive(id, m);
      await this.schemas.lockVersioning(header.dataset_id, m);
      await this.assertDeletable(id, m);
      if ((await this.schemas.nextVersionNum(header.dataset_id, m)) !== header.version_num + 1) {
        throw new AppError('DATASET_SCHEMA_NOT_LATEST');
      }
      // Soft-deleted links count too: their pins are foreign keys, and a restore needs the version.
      const pins = await this.schemas.countPinningLinks(id, m);
      if (pins > 0) throw new AppError('DATASET_SCHEMA_IN_USE', undefined, { dataset_links: pins });
      return toDatasetSchema(await this.schemas.crud.hardDelete(id, m));
    });
  }
}
