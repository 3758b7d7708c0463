import { randomUUID } from 'node:crypto';
import {
  type BulkCreateDatasetsResult,
  type CreateDataset,
  DATASET_KIND_ATTRIBUTES,
  type Dataset,
  type DatasetKind,
  type ListQuery,
  type Page,
  type UpdateDataset,
} from '@aide/schemas';
import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user.js';
import type { CrudService } from '../../common/crud/crud-service.js';
import { mapPage } from '../../common/crud/list.js';
import { type ItemResult, itemOutcome, runPerItem } from '../../common/crud/per-item.js';
import type { KeysWithin } from '../../common/crud/keys-within.js';
import { splitByTable } from '../../common/crud/polymorphic.js';
import { splitUpdate } from '../../common/crud/update-input.js';
import { AppError } from '../../common/errors/app-error.js';
import { toAppError } from '../../common/errors/error-response.js';
import { Transactions } from '../../database/transactions.js';
import { flavorMismatch } from '../system-flavors/flavor-mismatch.js';
import { SystemFlavorsLookup } from '../system-flavors/system-flavors.lookup.js';
import { SystemsLookup } from '../systems/systems.lookup.js';
import { assertDatasetKindsFit } from '../system-kinds/dataset-kind-rules.js';
import { DATASET_KIND_ENTITIES, type DatasetEntity } from './dataset.entity.js';
import { assertDatasetFlavorFits, effectiveFlavorId } from './dataset-flavor-rules.js';
import { toDataset } from './dataset.mapper.js';
import { DatasetsRepository } from './datasets.repository.js';

/** A dataset's name within its system, as the active-name unique index sees it. */
function nameKey(item: { system_id: string; object_name: string }): string {
  return `${item.system_id.toLowerCase()}/${item.object_name}`;
}

// The parent keys of a create or update body (the keys every kind shares) are the parent's columns, a
// kind's attributes its kind table's: checked here, since `splitByKind` passes them on by name.
const createKeysAreColumns: KeysWithin<CreateDataset, DatasetEntity> = true;
const updateKeysAreColumns: KeysWithin<UpdateDataset, DatasetEntity> = true;
const kindKeysAreColumns: {
  [K in DatasetKind]: KeysWithin<
    (typeof DATASET_KIND_ATTRIBUTES)[K],
    InstanceType<(typeof DATASET_KIND_ENTITIES)[K]>
  >;
} = { rdbms: true, kafka: true, storage: true, sftp: true, hive: true };
void [createKeysAreColumns, updateKeysAreColumns, kindKeysAreColumns];

function splitByKind(kind: DatasetKind, body: Record<string, unknown>) {
  return splitByTable<DatasetEntity>(Object.keys(DATASET_KIND_ATTRIBUTES[kind]), body);
}

@Injectable()
export class DatasetsService implements CrudService<Dataset, CreateDataset, UpdateDataset> {
  private readonly logger = new Logger(DatasetsService.name);

  constructor(
    private readonly datasets: DatasetsRepository,
    private readonly systems: SystemsLookup,
    private readonly flavors: SystemFlavorsLookup,
    private readonly tx: Transactions,
  ) {}

  async list(query: ListQuery): Promise<Page<Dataset>> {
    return mapPage(await this.datasets.findPage(query), toDataset);
  }

  async get(id: string): Promise<Dataset> {
    return toDataset(await this.datasets.getWithDetails(id));
  }

  /**
   * The system must be active and of a kind that holds datasets of `kind`, and the dataset's own flavor
   * (if any) an active flavor of the system's kind; the system, the flavors and kind stay share-locked,
   * so none of them can change kind before this commits. Answers the system's flavor.
   */
  private async assertSystem(
    systemId: string,
    kind: DatasetKind,
    flavorId: string | null | undefined,
    m: EntityManager,
  ): Promise<string> {
    const system = (await this.systems.kindsAndFlavorsOf([systemId], m)).get(systemId.toLowerCase());
    if (system === undefined) throw new AppError('SYSTEM_NOT_FOUND');
    assertDatasetKindsFit([kind], system.kind_code);
    if (flavorId !== null && flavorId !== undefined) {
      assertDatasetFlavorFits(flavorId, await this.flavors.kindCodeOf(flavorId, m), system.kind_code);
    }
    return system.flavor_id;
  }

  create(input: CreateDataset, actor: AuthUser): Promise<Dataset> {
    return this.tx.run((m) => this.createIn(input, actor, m));
  }

  /** `create` in the caller's transaction (lake-sync writes a dataset with its version and link). */
  async createIn(input: CreateDataset, actor: AuthUser, m: EntityManager): Promise<Dataset> {
    const { common, details } = splitByKind(input.kind, input);
    await this.assertSystem(input.system_id, input.kind, input.flavor_id, m);
    const row = await this.datasets.crud.insert({ ...common, kind: input.kind }, actor.id, m);
    await this.datasets.insertDetails(input.kind, row.id, details, m);
    return toDataset(await this.datasets.getWithDetails(row.id, m));
  }

  /**
   * Each dataset created on its own: one that fails (a duplicate name, an unknown system, a kind its
   * system cannot hold) is reported and the others are still created. A duplicate names the existing
   * dataset, so a client re-running the same batch can carry on with it. Set-based (ADR 0017): every
   * item is checked with a few queries for the whole batch, then the ones that pass are inserted
   * together (one INSERT per table); only when that fails (a concurrent writer, a constraint the
   * checks do not foresee) is each retried in its own transaction.
   */
  async createEach(items: readonly CreateDataset[], actor: AuthUser): Promise<BulkCreateDatasetsResult> {
    const together = await this.tx.run((m) => this.createAll(items, actor, m)).catch(() => undefined);
    const outcomes = together
      ? together.map((result, index) => itemOutcome(index, items[index], result, this.logger))
      : await runPerItem(items, (item) => this.createOne(item, actor), this.logger);
    const created = outcomes.filter((o) => o.value !== null).length;
    return {
      items: outcomes.map(({ index, value, error }) => ({
        index,
        status: value ? 'created' : 'failed',
        dataset: value,
        error,
      })),
      summary: { created, failed: outcomes.length - created },
    };
  }

  /** One item of a batch alone, a duplicate answered with the dataset that holds the name. */
  private async createOne(item: CreateDataset, actor: AuthUser): Promise<Dataset> {
    const known = (await this.datasets.findActiveIdsByNames([item])).get(nameKey(item));
    if (known) throw new AppError('DATASET_ALREADY_EXISTS', undefined, { dataset_id: known });
    try {
      return await this.create(item, actor);
    } catch (error) {
      if (toAppError(error).code !== 'DATASET_ALREADY_EXISTS') throw error;
      const id = (await this.datasets.findActiveIdsByNames([item])).get(nameKey(item));
      throw new AppError('DATASET_ALREADY_EXISTS', undefined, id ? { dataset_id: id } : undefined);
    }
  }

  /**
   * The whole batch in one transaction: each item checked (`checkCreates`), then one INSERT per table
   * for the items that pass; a name taken by an earlier item of the batch is answered with its dataset.
   */
  private async createAll(
    items: readonly CreateDataset[],
    actor: AuthUser,
    m: EntityManager,
  ): Promise<ItemResult<Dataset>[]> {
    const { checked, duplicateOf } = await this.checkCreates(items, m);
    const accepted = [...checked.keys()].filter((i) => checked[i].ok);
    const inserted = await this.insertAll(
      accepted.map((i) => ({ id: randomUUID(), item: items[i] })),
      actor,
      m,
    );
    const insertedAt = new Map(accepted.map((i, k) => [i, inserted[k]]));
    const results = checked.map((c, index): ItemResult<Dataset> => {
      const dataset = insertedAt.get(index);
      if (dataset) return { ok: true, value: dataset };
      const first = duplicateOf.get(index);
      if (first === undefined && !c.ok) return c;
      const id = first === undefined ? undefined : insertedAt.get(first)?.id;
      return {
        ok: false,
        error: new AppError('DATASET_ALREADY_EXISTS', undefined, id ? { dataset_id: id } : undefined),
      };
    });
    return results;
  }

  /**
   * The checks of a batch of creates, nothing written: the systems locked and their kinds read, the
   * names looked up, each item checked as `createOne` checks it (in its order: the name, the system, the
   * kind). An item whose name an earlier item of the batch takes is in `duplicateOf` (index → the
   * earlier one's) and fails. A passing item gets its flavor (its own, else its system's): a bulk
   * publish creates datasets with their first versions (ADR 0037) and resolves their types with it.
   */
  async checkCreates(
    items: readonly CreateDataset[],
    m: EntityManager,
  ): Promise<{ checked: ItemResult<{ flavor_id: string }>[]; duplicateOf: Map<number, number> }> {
    const systems = await this.systems.kindsAndFlavorsOf([...new Set(items.map((i) => i.system_id))], m);
    const flavorKinds = await this.flavors.kindCodesOf(
      items.flatMap((i) => (i.flavor_id ? [i.flavor_id] : [])),
      m,
    );
    const existing = await this.datasets.findActiveIdsByNames(items, m);
    // The first item to take a name, by name; the later ones fail with its dataset.
    const takenBy = new Map<string, number>();
    const duplicateOf = new Map<number, number>();
    const checked = items.map((item, index): ItemResult<{ flavor_id: string }> => {
      try {
        const known = existing.get(nameKey(item));
        if (known) throw new AppError('DATASET_ALREADY_EXISTS', undefined, { dataset_id: known });
        const system = systems.get(item.system_id.toLowerCase());
        if (system === undefined) throw new AppError('SYSTEM_NOT_FOUND');
        assertDatasetKindsFit([item.kind], system.kind_code);
        if (item.flavor_id) {
          const kindCode = flavorKinds.get(item.flavor_id.toLowerCase());
          assertDatasetFlavorFits(item.flavor_id, kindCode, system.kind_code);
        }
        const first = takenBy.get(nameKey(item));
        if (first !== undefined) {
          duplicateOf.set(index, first);
          throw new AppError('DATASET_ALREADY_EXISTS');
        }
        takenBy.set(nameKey(item), index);
        return { ok: true, value: { flavor_id: effectiveFlavorId(item.flavor_id, system.flavor_id) } };
      } catch (error) {
        return { ok: false, error };
      }
    });
    return { checked, duplicateOf };
  }

  /**
   * Datasets that passed `checkCreates`, with the ids the caller made for them: one INSERT per table,
   * nothing read back.
   */
  async insertChecked(
    items: readonly { id: string; item: CreateDataset }[],
    actor: AuthUser,
    m: EntityManager,
  ): Promise<void> {
    if (items.length === 0) return;
    const split = items.map(({ id, item }) => ({ id, kind: item.kind, ...splitByKind(item.kind, item) }));
    await this.datasets.crud.insertMany(
      split.map((s) => ({ ...s.common, id: s.id, kind: s.kind })),
      actor.id,
      m,
    );
    for (const kind of new Set(split.map((s) => s.kind))) {
      await this.datasets.insertDetailsMany(
        kind,
        split.flatMap((s) => (s.kind === kind ? [{ ...s.details, id: s.id }] : [])),
        m,
      );
    }
  }

  /** `insertChecked`, then the datasets read back in one query. */
  private async insertAll(
    items: readonly { id: string; item: CreateDataset }[],
    actor: AuthUser,
    m: EntityManager,
  ): Promise<Dataset[]> {
    if (items.length === 0) return [];
    await this.insertChecked(items, actor, m);
    return (
      await this.datasets.findManyWithDetails(
        items.map((i) => i.id),
        m,
      )
    ).map(toDataset);
  }

  /**
   * `kind` must match the stored kind and `system_id` never changes (the update schema has no
   * `system_id`), so an update cannot break the kind rule; system, flavor and kind updates check it.
   */
  update(id: string, input: UpdateDataset, ifMatch: number | undefined, actor: AuthUser): Promise<Dataset> {
    const { changes, version } = splitUpdate(input, ifMatch);
    const { common, details } = splitByKind(input.kind, changes);
    return this.tx.run(async (m) => {
      // Locked when the flavor may change: no version can be published under it before this commits.
      const current = await this.datasets.crud.getActive(
        id,
        m,
        changes.flavor_id === undefined ? undefined : 'update',
      );
      if (current.kind !== input.kind) throw new AppError('DATASET_KIND_MISMATCH');
      if (changes.flavor_id !== undefined) await this.assertFlavorChange(current, changes.flavor_id, m);
      await this.datasets.crud.update(id, common, version, actor.id, m);
      await this.datasets.updateDetails(input.kind, id, details, m);
      return toDataset(await this.datasets.getWithDetails(id, m));
    });
  }

  /**
   * A new flavor must be of the system's kind, and the flavor the columns are typed in may change only
   * while no version with columns is published: their type trees are of the current one (as for a
   * system's flavor, ADR 0010), answered 422 TYPE_INSTANCE_FLAVOR_MISMATCH.
   */
  private async assertFlavorChange(
    current: DatasetEntity,
    flavorId: string | null,
    m: EntityManager,
  ): Promise<void> {
    const systemFlavor = await this.assertSystem(current.system_id, current.kind, flavorId, m);
    const from = effectiveFlavorId(current.flavor_id, systemFlavor);
    const to = effectiveFlavorId(flavorId, systemFlavor);
    if (from !== to && (await this.datasets.hasBoundVersions(current.id, m))) {
      throw flavorMismatch(
        'The dataset has published schema versions typed in its current flavor: its flavor cannot change.',
        { dataset_id: current.id, dataset_flavor_id: from, requested_flavor_id: to },
      );
    }
  }

  /**
   * Soft delete, refused while an active dataset link has the dataset on either side; fields, versions
   * and bindings stay and come back on restore.
   */
  remove(id: string, actor: AuthUser): Promise<Dataset> {
    return this.tx.run(async (m) => {
      // Locked first: a link being created holds the dataset FOR SHARE, so the count below is final.
      await this.datasets.crud.getActive(id, m, 'update');
      const links = await this.datasets.countActiveLinks(id, m);
      if (links > 0) throw new AppError('DATASET_HAS_ACTIVE_LINKS', undefined, { dataset_links: links });
      // Dataflows read or write it (a dataflow holds its datasets FOR SHARE while it is written).
      const dataflows = await this.datasets.countActiveDataflows(id, m);
      if (dataflows > 0) throw new AppError('HAS_DEPENDENT_ENTITIES', undefined, { dataflows });
      await this.datasets.crud.softDelete(id, actor.id, m);
      return toDataset(await this.datasets.getWithDetails(id, m, true));
    });
  }

  restore(id: string, actor: AuthUser): Promise<Dataset> {
    return this.tx.run(async (m) => {
      const row = await this.datasets.crud.findAny(id, m);
      if (row?.deleted_at) await this.assertSystem(row.system_id, row.kind, row.flavor_id, m);
      await this.datasets.crud.restore(id, actor.id, m);
      return toDataset(await this.datasets.getWithDetails(id, m));
    });
  }
}
