import { randomUUID } from 'node:crypto';
import {
  classifyVersionChange,
  type CompatibilityCheck,
  type CompatibilityOverride,
  type DatasetCompatibility,
  isTransitive,
  type ComparableColumn,
  type ComparableType,
  type ComparableVersion,
  type CreateDataset,
  type ForeignKey,
  PublishSchemaVersionSchema,
  scalarParams,
  type TypeSpec,
  typeSpecOfTree,
  type VersionChange,
} from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { z } from 'zod';
import type { AuthUser } from '../../common/auth/current-user.js';
import type { ItemResult } from '../../common/crud/per-item.js';
import { AppError } from '../../common/errors/app-error.js';
import type { DataTypeEntity } from '../data-types/data-type.entity.js';
import { DataTypesLookup } from '../data-types/data-types.lookup.js';
import { CompatibilityLevelsService } from '../compatibility/compatibility-levels.service.js';
import { type LevelVerdict, levelVerdict, violationSummary } from '../compatibility/compatibility-checker.js';
import type { DatasetSchemaEntity } from '../dataset-schemas/dataset-schema.entity.js';
import { DatasetSchemasRepository } from '../dataset-schemas/dataset-schemas.repository.js';
import { DatasetsLookup } from '../datasets/datasets.lookup.js';
import { DatasetsService } from '../datasets/datasets.service.js';
import type { FieldEntity } from '../fields/field.entity.js';
import { FieldsRepository } from '../fields/fields.repository.js';
import { SystemFlavorsLookup } from '../system-flavors/system-flavors.lookup.js';
import {
  FieldBindingsRepository,
  type VersionColumnRow,
} from '../field-bindings/field-bindings.repository.js';
import type { TypeTreeRow } from '../type-instances/type-instances.lookup.js';
import { buildTypeTrees, toTypeInstanceTree, typeSignature } from '../type-instances/type-tree.js';
import { storedTreeLimits } from '../type-instances/type-tree-rules.js';
import { TypeTreeWriter } from '../type-instances/type-tree.writer.js';
import { type ResolvedTypeSpec, resolveTypeSpec } from '../type-instances/type-spec-resolver.js';
import { EarlierVersions } from './earlier-versions.js';
import { ReadShapesRepository } from './read-shapes.repository.js';
import { SchemaVersionReader } from './schema-version.reader.js';
import { VersionColumns } from './version-columns.js';
import {
  type ColumnAttributes,
  columnAttributesOf,
  columnAttributesOfRow,
  columnAttributesRead,
  columnText,
  type TableStructure,
  tableStructureOf,
  tableStructureOfEntity,
  tableText,
} from './version-structure.js';

type PublishInput = z.output<typeof PublishSchemaVersionSchema>;

/** One dataset's version to publish: of a registered dataset, or of one created with it. */
export type PublishItem = (
  | { datasetId: string; newDataset?: undefined }
  | {
      datasetId?: undefined;
      /**
       * A dataset created with this version as its first, in the same transaction: a version that is
       * refused leaves no dataset behind (ADR 0037).
       */
      newDataset: CreateDataset;
    }
) & {
  input: PublishInput;
  /**
   * Bulk publish: the current version number the item was computed from. A dataset at another version
   * is a VERSION_CONFLICT, unless the item equals its current version.
   */
  baseVersionNum?: number | null;
  /** Refuse the item (DATASET_SCHEMA_BREAKING_CHANGE) when the registry classes its change breaking. */
  refuseBreaking?: boolean | undefined;
};

/** What a publish came to: the version written, or the current one when nothing changed. */
export interface Published {
  created: boolean;
  header: DatasetSchemaEntity;
  /** The version the change is classified against: the current one at publish (null: none). */
  baseVersionNum: number | null;
  /** The registry's own classification of the change from that version (ADR 0037). */
  change: VersionChange;
}

/** Per item: what it came to, or the error a publish of it alone would have answered. */
export type PublishOutcome = ItemResult<Published>;

interface PreparedColumn {
  name: string;
  nullable: boolean;
  path?: string | null | undefined;
  origin?: string | undefined;
  type: ResolvedTypeSpec | null;
  /** The type in the classifier's terms. */
  comparableType: ComparableType | null;
  attributes: ColumnAttributes;
  signature: string | null;
  text: string;
}

interface CurrentColumn {
  name: string;
  typeInstanceId: string | null;
  signature: string | null;
  text: string;
  /** The column in the classifier's terms. */
  comparable: ComparableColumn;
}

/** An item on its way: what has been read and checked for it so far. */
interface Pending {
  index: number;
  item: PublishItem;
  /** The dataset's id as stored (lower case). */
  id: string;
  system_id: string;
  flavor_id: string;
  /** A dataset to create (its id made here), written with the version. */
  create?: CreateDataset | undefined;
  columns: PreparedColumn[];
  structure?: TableStructure;
  current?: DatasetSchemaEntity | undefined;
  previous: CurrentColumn[];
  change?: VersionChange;
  versionNum: number;
  /** The dataset's format, for its evolution rules (null: SQL's). */
  flavor?: string | null;
  /** The version being published in the classifier's terms. */
  target?: ComparableVersion;
  /** The compatibility level that applies (none for a dataset created with this version). */
  level?: DatasetCompatibility | undefined;
  /** What the level makes of the change (none for a first version). */
  verdict?: LevelVerdict;
  /** A forced publish's record (ADR 0048), kept on the version. */
  override?: CompatibilityOverride;
}

/** Runs a check on the items still pending; an item whose check throws is answered with the error. */
type Step = <T extends { index: number }>(list: readonly T[], check: (p: T) => void) => T[];

/** An item's compatibility check (ADR 0048), the `details` of DATASET_SCHEMA_INCOMPATIBLE too. */
function checkOf(p: Pending): CompatibilityCheck {
  const verdict = p.verdict ?? { compared_versions: [], violations: [] };
  return {
    dataset_id: p.id,
    level: p.level?.effective_level ?? 'NONE',
    source: p.level?.source ?? 'registry',
    accepted: verdict.violations.length === 0,
    base_version_num: p.current?.version_num ?? null,
    compared_versions: verdict.compared_versions,
    violations: verdict.violations,
    impact: null,
    ...(p.change as VersionChange),
  };
}

/**
 * Publishes whole versions set-based (ADR 0017): any number of datasets costs the same statements —
 * reads that check every item, then one INSERT per table for the items that pass. Each item is checked
 * exactly as a publish of it alone, in the same order, and an item that fails is answered with that
 * error while the others go on; a single publish is a batch of one.
 *
 * Per-item atomicity: an item writes all its rows or none. The writes of all the items that passed are
 * in the caller's transaction; should one of them fail (a concurrent writer, a constraint the checks do
 * not foresee), the caller rolls back and publishes each item in a transaction of its own.
 */
@Injectable()
export class SchemaVersionPublisher {
  constructor(
    private readonly datasets: DatasetsLookup,
    private readonly newDatasets: DatasetsService,
    private readonly schemas: DatasetSchemasRepository,
    private readonly fields: FieldsRepository,
    private readonly bindings: FieldBindingsRepository,
    private readonly versionColumns: VersionColumns,
    private readonly typeTrees: TypeTreeWriter,
    private readonly dataTypes: DataTypesLookup,
    private readonly reader: SchemaVersionReader,
    private readonly readShapes: ReadShapesRepository,
    private readonly flavors: SystemFlavorsLookup,
    private readonly levels: CompatibilityLevelsService,
    private readonly earlierVersions: EarlierVersions,
  ) {}

  async publishAll(
    m: EntityManager,
    items: readonly PublishItem[],
    actor: AuthUser,
  ): Promise<PublishOutcome[]> {
    const { outcomes, step, pending: prepared } = await this.prepare(m, items, actor);
    // The dataset's compatibility level (ADR 0048): a violation refuses the item, unless a superuser
    // forces it with a reason, kept on the version with the violations it overrode.
    let pending = step(prepared, (p) => {
      const violations = p.verdict?.violations ?? [];
      if (violations.length === 0) return;
      const level = p.level as DatasetCompatibility;
      const reason = p.item.input.force_reason;
      if (reason === undefined) {
        throw new AppError(
          'DATASET_SCHEMA_INCOMPATIBLE',
          `The dataset's compatibility level ${level.effective_level} refuses the change: ` +
            `${violationSummary(violations)}.`,
          checkOf(p),
        );
      }
      p.override = { reason, forced_by: actor.id, level: level.effective_level, violations };
    });

    // Version numbers: the next one, or the one the client named if it is the next.
    const nextOf = await this.schemas.nextVersionNums(
      pending.map((p) => p.id),
      m,
    );
    const named = pending.filter(
      (p) => p.item.input.version_num !== undefined && p.item.input.version_num !== nextOf.get(p.id),
    );
    const existing = await this.schemas.existingVersions(
      named.map((p) => ({ dataset_id: p.id, version_num: p.item.input.version_num as number })),
      m,
    );
    pending = step(pending, (p) => {
      const next = nextOf.get(p.id) ?? 1;
      p.versionNum = p.item.input.version_num ?? next;
      if (p.versionNum === next) return;
      const details = { version_num: p.versionNum, next_version_num: next };
      if (existing.has(`${p.id}/${p.versionNum}`)) {
        throw new AppError('DATASET_SCHEMA_ALREADY_EXISTS', undefined, details);
      }
      throw new AppError(
        'DATASET_SCHEMA_VERSION_NOT_NEXT',
        `The next version of this dataset is ${next}.`,
        details,
      );
    });

    const headers = await this.write(pending, actor, m);
    pending.forEach(
      (p, k) =>
        (outcomes[p.index] = {
          ok: true,
          value: {
            created: true,
            header: headers[k],
            baseVersionNum: p.current?.version_num ?? null,
            change: p.change as VersionChange,
          },
        }),
    );
    return outcomes as PublishOutcome[];
  }

  /**
   * What publishing the items would come to against their datasets' compatibility levels, writing
   * nothing (the check routes): each item prepared exactly as a publish prepares it, its error answered
   * as a publish would, its verdict otherwise. An item equal to its current version is accepted.
   */
  async checkAll(m: EntityManager, items: readonly PublishItem[]): Promise<ItemResult<CompatibilityCheck>[]> {
    const { outcomes, pending, levelsOf } = await this.prepare(m, items, null);
    const checks = new Map(pending.map((p) => [p.index, checkOf(p)]));
    return items.map((_, index): ItemResult<CompatibilityCheck> => {
      const check = checks.get(index);
      if (check) return { ok: true, value: check };
      const outcome = outcomes[index] as PublishOutcome;
      if (!outcome.ok) return outcome;
      // Equal to its current version: accepted whatever the level, nothing compared.
      const { header, baseVersionNum, change } = outcome.value;
      const level = levelsOf.get(header.dataset_id);
      return {
        ok: true,
        value: {
          dataset_id: header.dataset_id,
          level: level?.effective_level ?? 'NONE',
          source: level?.source ?? 'registry',
          accepted: true,
          base_version_num: baseVersionNum,
          compared_versions: [],
          violations: [],
          impact: null,
          ...change,
        },
      };
    });
  }

  /**
   * Everything a publish checks before numbering and writing, for a publish (`actor`) or a check
   * (null: no versioning locks, no force): the items still pending with their classified change and
   * their level's verdict; the others answered in `outcomes` (an error, or unchanged).
   */
  private async prepare(
    m: EntityManager,
    items: readonly PublishItem[],
    actor: AuthUser | null,
  ): Promise<{
    outcomes: (PublishOutcome | undefined)[];
    step: Step;
    pending: Pending[];
    levelsOf: Map<string, DatasetCompatibility>;
  }> {
    const outcomes: (PublishOutcome | undefined)[] = items.map(() => undefined);
    // Each step runs `check` on the items still pending; an item whose check throws is answered with
    // the error and leaves the batch.
    const step: Step = (list, check) =>
      list.filter((p) => {
        try {
          check(p);
          return true;
        } catch (error) {
          outcomes[p.index] = { ok: false, error };
          return false;
        }
      });

    // The datasets, held FOR SHARE, and their versioning locks; the datasets to create checked as a
    // create checks them (their systems held FOR SHARE), each given its id.
    const found = await this.datasets.findActiveWithFlavor(
      items.flatMap((i) => (i.datasetId === undefined ? [] : [i.datasetId])),
      m,
    );
    const creates = items.flatMap((item, index) =>
      item.newDataset ? [{ index, item: item.newDataset }] : [],
    );
    const checked =
      creates.length === 0
        ? []
        : (
            await this.newDatasets.checkCreates(
              creates.map((c) => c.item),
              m,
            )
          ).checked;
    const createdAt = new Map(creates.map((c, k) => [c.index, checked[k]]));
    let pending: Pending[] = step(
      items.map((item, index) => ({ index, item })),
      ({ item, index }) => {
        // Forcing a publish over a compatibility level is a superuser's decision (ADR 0048), asked
        // for or not: a reason from anyone else is refused even when nothing would need forcing.
        if (actor !== null && item.input.force_reason !== undefined && !actor.is_superuser) {
          throw new AppError(
            'FORBIDDEN',
            "Only a superuser may publish with force_reason (over the dataset's compatibility level).",
          );
        }
        const create = createdAt.get(index);
        if (create?.ok === false) throw create.error;
        if (item.datasetId !== undefined && !found.has(item.datasetId.toLowerCase())) {
          throw new AppError('DATASET_NOT_FOUND');
        }
      },
    ).map(({ index, item }) => {
      const create = createdAt.get(index);
      const dataset =
        item.newDataset && create?.ok
          ? {
              id: randomUUID(),
              system_id: item.newDataset.system_id.toLowerCase(),
              flavor_id: create.value.flavor_id,
              create: item.newDataset,
            }
          : (found.get((item.datasetId as string).toLowerCase()) as {
              id: string;
              system_id: string;
              flavor_id: string;
            });
      return { index, item, ...dataset, columns: [], previous: [], versionNum: 0 };
    });
    // A publish numbers versions under the datasets' versioning locks; a check writes nothing.
    if (actor !== null) {
      await this.schemas.lockVersioning(
        pending.map((p) => p.id),
        m,
      );
    }
    // The levels that apply, read now (never cached: replicas share the database).
    const levelsOf = await this.levels.ofDatasets(
      pending.flatMap((p) => (p.create ? [] : [p.id])),
      m,
    );
    for (const p of pending) p.level = levelsOf.get(p.id);

    // Column types resolved against each flavor's data types.
    const flavorIds = [...new Set(pending.map((p) => p.flavor_id))];
    const typesOf = await this.dataTypes.byCodeOfFlavors(flavorIds, m);
    // A format's own evolution rules (Avro, Protobuf) class its datasets' changes.
    const flavorCodes = await this.flavors.codesOf(flavorIds, m);
    const specs = new ResolvedSpecs();
    pending = step(pending, (p) => {
      const dataTypes = typesOf.get(p.flavor_id) ?? new Map<string, DataTypeEntity>();
      p.columns = prepareColumns(p.item.input, (spec, path) =>
        specs.resolve(p.flavor_id, spec, dataTypes, path),
      );
    });

    // Foreign keys resolved to their targets, for all items in one query.
    const targets = await this.datasets.findTableTargets(
      pending.flatMap((p) =>
        (p.item.input.foreign_keys ?? []).flatMap((k) =>
          k.referenced.dataset_id ? [k.referenced.dataset_id.toLowerCase()] : [],
        ),
      ),
      pending.flatMap((p) =>
        (p.item.input.foreign_keys ?? []).flatMap((k) =>
          !k.referenced.dataset_id && k.referenced.table
            ? [{ system_id: p.system_id, table: k.referenced.table }]
            : [],
        ),
      ),
      m,
    );
    const foreignKeys = new ForeignKeyTargets(targets);
    if (pending.some((p) => p.create?.kind === 'rdbms')) {
      // A table created in this batch may be the target of another item's key by name. Keys by id (the
      // only ones that fail, and never to a table created here) are checked first, then the new tables
      // still in the batch join the targets: none of them can fail from here on.
      pending = step(pending, (p) => void foreignKeys.resolve(p.system_id, p.item.input));
      foreignKeys.add(pending.flatMap(newTableTarget));
    }
    pending = step(pending, (p) => {
      p.structure = tableStructureOf(p.item.input, foreignKeys.resolve(p.system_id, p.item.input));
    });

    // The current versions and their columns: an item equal to its current version is unchanged; one
    // whose current version is not its base is a conflict.
    const currentOf = new Map(
      (
        await this.schemas.findCurrentOfMany(
          pending.map((p) => p.id),
          m,
        )
      ).map((h) => [h.dataset_id, h]),
    );
    const previous = await this.currentColumns([...currentOf.values()], m);
    pending = step(pending, (p) => {
      p.current = currentOf.get(p.id);
      p.previous = p.current ? previous(p.current.id) : [];
      const currentNum = p.current?.version_num ?? null;
      if (p.current && isUnchanged(p.current, p.previous, p.columns, p.structure as TableStructure)) {
        const change = { compatibility: null, changes: [] };
        outcomes[p.index] = {
          ok: true,
          value: { created: false, header: p.current, baseVersionNum: currentNum, change },
        };
        return;
      }
      const base = p.item.baseVersionNum;
      if (base !== undefined && base !== currentNum) {
        throw new AppError(
          'VERSION_CONFLICT',
          `The dataset is at version ${currentNum ?? 'none'}, not ${base ?? 'none'}: compute the change again.`,
          { base_version_num: base, current_version_num: currentNum },
        );
      }
      // The registry's own classification of the change (ADR 0037): never a client's label.
      const flavor = flavorCodes.get(p.flavor_id.toLowerCase());
      p.flavor = flavor ?? null;
      p.target = comparableOfPublish(p.columns, p.structure as TableStructure);
      p.change = classifyVersionChange(
        p.current ? comparableOfCurrent(p.current, p.previous) : null,
        p.target,
        flavor === undefined ? {} : { flavor },
      );
      if (p.item.refuseBreaking === true && p.change.compatibility === 'breaking') {
        throw new AppError(
          'DATASET_SCHEMA_BREAKING_CHANGE',
          `The change from version ${currentNum ?? 'none'} is breaking: ${breakingSummary(p.change)}.`,
          {
            base_version_num: currentNum,
            compatibility: 'breaking',
            changes: p.change.changes.filter((c) => c.compatibility === 'breaking'),
          },
        );
      }
    }).filter((p) => outcomes[p.index] === undefined);

    // What each dataset's level makes of its change (a first version: nothing to compare with). A
    // _TRANSITIVE level compares every earlier version, all read in a fixed number of queries.
    const history = await this.earlierVersions.of(
      pending.flatMap((p) => (p.current && p.level && isTransitive(p.level.effective_level) ? [p.id] : [])),
      m,
    );
    for (const p of pending) {
      if (!p.current || !p.level) continue;
      const versions = history.get(p.id) ?? [];
      const currentNum = p.current.version_num;
      p.verdict = levelVerdict(
        p.level.effective_level,
        p.target as ComparableVersion,
        {
          version_num: currentNum,
          fingerprint: versions.find((v) => v.version_num === currentNum)?.fingerprint ?? null,
          changes: (p.change as VersionChange).changes,
        },
        versions,
        p.flavor ?? null,
      );
    }
    return { outcomes, step, pending, levelsOf };
  }

  /**
   * The writes of the items that passed: headers, missing root fields, new type trees, bindings, and
   * the versions' read shapes.
   */
  private async write(
    pending: readonly Pending[],
    actor: AuthUser,
    m: EntityManager,
  ): Promise<DatasetSchemaEntity[]> {
    if (pending.length === 0) return [];
    // The datasets created with their first versions, before the versions that reference them.
    await this.newDatasets.insertChecked(
      pending.flatMap((p) => (p.create ? [{ id: p.id, item: p.create }] : [])),
      actor,
      m,
    );
    const headers = await this.schemas.insertHeaders(
      pending.map((p) => ({
        dataset_id: p.id,
        version_num: p.versionNum,
        schema_: p.item.input.schema ?? null,
        extra: p.item.input.extra ?? null,
        note: p.item.input.note ?? null,
        compatibility_override: p.override ?? null,
        ...p.structure,
      })),
      actor.id,
      m,
    );

    // Root fields by name: the existing ones are reused, the missing ones created.
    const fieldIds = await this.fields.findRootIdsByNames(
      pending.flatMap((p) => p.columns.map((c) => ({ dataset_id: p.id, name: c.name }))),
      m,
    );
    const newFields: Partial<FieldEntity>[] = [];
    for (const p of pending) {
      for (const c of p.columns) {
        const key = `${p.id}/${c.name}`;
        if (fieldIds.has(key)) continue;
        const id = randomUUID();
        fieldIds.set(key, id);
        newFields.push({
          id,
          dataset_id: p.id,
          name: c.name,
          path: c.path ?? c.name,
          ...(c.origin ? { origin: c.origin as FieldEntity['origin'] } : {}),
        });
      }
    }
    await this.fields.insertColumnFields(newFields, actor.id, m);

    // An unchanged column keeps the previous version's type tree; the others get new trees.
    const typeIds = pending.map((p) => {
      const reusable = new Map(
        p.previous.flatMap((c) => (c.signature ? [[`${c.name}\u0000${c.signature}`, c.typeInstanceId]] : [])),
      );
      return p.columns.map((c) => (c.signature ? reusable.get(`${c.name}\u0000${c.signature}`) : null));
    });
    const toCreate = pending.flatMap((p, k) =>
      p.columns.flatMap((c, i) => (typeIds[k]?.[i] === undefined && c.type ? [{ k, i, type: c.type }] : [])),
    );
    const created = await this.typeTrees.insertTrees(
      toCreate.map((t) => t.type),
      actor.id,
      m,
    );
    toCreate.forEach((t, n) => (typeIds[t.k][t.i] = created[n]));

    await this.bindings.insertColumns(
      pending.flatMap((p, k) =>
        p.columns.map((c, position) => ({
          field_id: fieldIds.get(`${p.id}/${c.name}`) as string,
          dataset_schema_id: headers[k].id,
          position,
          is_nullable: c.nullable,
          type_instance_id: typeIds[k]?.[position] ?? null,
          ...c.attributes,
        })),
      ),
      actor.id,
      m,
    );

    // Each new version's read shape (ADR 0029), read back as any version read would answer it. A
    // version that would not read whole (a type that does not render) is refused, as a binding is.
    const read = await this.reader.withShapes(headers, m);
    for (const r of read.values()) if (r.error) throw r.error;
    await this.readShapes.store(
      [...read.values()].flatMap((r) => (r.shape ? [r.shape] : [])),
      m,
    );
    return headers;
  }

  /**
   * The columns of the given current versions, each with its type's signature and canonical text, in
   * two queries. A stored tree past the limits (an older release's) compares unequal to any new type.
   */
  private async currentColumns(
    headers: readonly DatasetSchemaEntity[],
    m: EntityManager,
  ): Promise<(schemaId: string) => CurrentColumn[]> {
    const ids = headers.map((h) => h.id);
    const { columns: rows, nodes } = await this.versionColumns.read(ids, m);
    const bySchema = groupBy(rows, (r) => r.dataset_schema_id);
    // Each node's tree (nodes come parents first), so that a version's trees are built from its rows.
    const rootOf = new Map<string, string>();
    const nodesOfRoot = new Map<string, TypeTreeRow[]>();
    for (const node of nodes) {
      const root = (node.parent_id !== null ? rootOf.get(node.parent_id) : undefined) ?? node.id;
      rootOf.set(node.id, root);
      const list = nodesOfRoot.get(root);
      if (list) list.push(node);
      else nodesOfRoot.set(root, [node]);
    }
    const order = new Map(nodes.map((n, i) => [n, i]));
    return (schemaId) => {
      const columns = bySchema.get(schemaId) ?? [];
      const roots = new Set(columns.flatMap((c) => (c.type_instance_id ? [c.type_instance_id] : [])));
      const own = [...roots]
        .flatMap((root) => nodesOfRoot.get(root) ?? [])
        .sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
      // A tree stored past the limits (an older release's) is never reused nor equal to a new one.
      const { rootOf, tooLarge } = storedTreeLimits(own);
      const trees = buildTypeTrees(own.filter((n) => !tooLarge.has(rootOf.get(n.id) as string)));
      return columns.map((r) => currentColumn(r, trees, tooLarge));
    };
  }
}

/** The signature of a stored tree past the limits: no type resolved from a publish has it. */
const UNREADABLE_SIGNATURE = '\u0000unreadable';

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const list = groups.get(key(item));
    if (list) list.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

function currentColumn(
  r: VersionColumnRow,
  trees: ReturnType<typeof buildTypeTrees>,
  tooLarge: ReadonlyMap<string, unknown>,
): CurrentColumn {
  const tree = r.type_instance_id ? trees.get(r.type_instance_id) : undefined;
  const unreadable = r.type_instance_id !== null && tooLarge.has(r.type_instance_id);
  const signature = tree ? typeSignature(tree) : unreadable ? UNREADABLE_SIGNATURE : null;
  return {
    name: r.field_name,
    typeInstanceId: r.type_instance_id,
    signature,
    text: columnText(
      { name: r.field_name, nullable: r.is_nullable, typeSignature: signature },
      columnAttributesOfRow(r),
    ),
    comparable: {
      name: r.field_name,
      nullable: r.is_nullable,
      // As a read of the version gives it (the crawler's side of the same comparison).
      type: tree ? typeSpecOfTree(toTypeInstanceTree(tree)) : null,
      ...columnAttributesRead(r),
    },
  };
}

/** The current version in the classifier's terms. */
function comparableOfCurrent(
  current: DatasetSchemaEntity,
  columns: readonly CurrentColumn[],
): ComparableVersion {
  return { ...tableStructureOfEntity(current), columns: columns.map((c) => c.comparable) };
}

/** The version being published in the classifier's terms: what a read of it will give. */
function comparableOfPublish(
  columns: readonly PreparedColumn[],
  structure: TableStructure,
): ComparableVersion {
  return {
    ...structure,
    columns: columns.map((c) => ({
      name: c.name,
      nullable: c.nullable,
      type: c.comparableType,
      ...columnAttributesRead(c.attributes),
    })),
  };
}

/** `column_removed id, type_changed amount` (at most five, then how many more). */
function breakingSummary(change: VersionChange): string {
  const breaking = change.changes.filter((c) => c.compatibility === 'breaking');
  const named = breaking.slice(0, 5).map((c) => (c.name === null ? c.category : `${c.category} ${c.name}`));
  return breaking.length > 5 ? `${named.join(', ')} and ${breaking.length - 5} more` : named.join(', ');
}

/** A table created in the batch, as a foreign key target by name. */
function newTableTarget(p: Pending): Target[] {
  if (p.create?.kind !== 'rdbms') return [];
  return [
    {
      id: p.id,
      system_id: p.system_id,
      schema_name: p.create.schema_name ?? null,
      table_name: p.create.table_name ?? null,
    },
  ];
}

/** The publish no-op rule: the same columns (texts, in order) and the same table structure. */
function isUnchanged(
  current: DatasetSchemaEntity,
  previous: readonly CurrentColumn[],
  columns: readonly PreparedColumn[],
  structure: TableStructure,
): boolean {
  return (
    previous.length === columns.length &&
    columns.every((c, i) => previous[i]?.text === c.text) &&
    tableText(tableStructureOfEntity(current)) === tableText(structure)
  );
}

interface ResolvedSpec {
  type: ResolvedTypeSpec;
  signature: string;
  comparable: ComparableType;
}

/**
 * Type specs resolved once per request and flavor (a crawl's 10,000 columns have a few dozen distinct
 * types). Only successes are kept: a spec that fails fails again for each column, naming its path.
 */
class ResolvedSpecs {
  private readonly known = new Map<string, ResolvedSpec>();

  resolve(
    flavorId: string,
    spec: TypeSpec,
    dataTypes: ReadonlyMap<string, DataTypeEntity>,
    path: (string | number)[],
  ): ResolvedSpec {
    const key = `${flavorId}\u0000${JSON.stringify(spec)}`;
    let resolved = this.known.get(key);
    if (!resolved) {
      const type = resolveTypeSpec(spec, dataTypes, path);
      resolved = { type, signature: typeSignature(type), comparable: comparableType(spec, type) };
      this.known.set(key, resolved);
    }
    return resolved;
  }
}

/**
 * A resolved type in the classifier's terms, as a read of it will give it: the codes as named, the
 * params as stored (defaults applied), scalar ones only.
 */
function comparableType(spec: TypeSpec, resolved: ResolvedTypeSpec): ComparableType {
  const node: ComparableType = { data_type: spec.data_type };
  const params = scalarParams(resolved.type_params);
  if (params !== undefined) node.params = params;
  if (spec.children !== undefined && spec.children.length > 0) {
    node.children = spec.children.map((child, i) => ({
      slot: child.slot,
      type: comparableType(child.type, resolved.children[i]),
    }));
  }
  return node;
}

/** The publish columns with their types resolved, signatures and canonical texts. */
function prepareColumns(
  input: PublishInput,
  resolve: (spec: TypeSpec, path: (string | number)[]) => ResolvedSpec,
): PreparedColumn[] {
  return input.columns.map((column, i) => {
    const resolved = column.type ? resolve(column.type, ['columns', i, 'type']) : null;
    const signature = resolved?.signature ?? null;
    const attributes = columnAttributesOf(column);
    return {
      ...column,
      type: resolved?.type ?? null,
      comparableType: resolved?.comparable ?? null,
      attributes,
      signature,
      text: columnText({ ...column, typeSignature: signature }, attributes),
    };
  });
}

type Target = { id: string; system_id: string; schema_name: string | null; table_name: string | null };

/**
 * Foreign keys with their targets resolved: a dataset named by id must exist; a table named by
 * `schema.table` becomes the dataset of the same system registered under that name, when there is
 * exactly one.
 */
class ForeignKeyTargets {
  private readonly byId = new Map<string, Target>();
  private readonly byTable = new Map<string, Target[]>();

  constructor(targets: readonly Target[]) {
    this.add(targets);
  }

  add(targets: readonly Target[]): void {
    for (const t of targets) {
      this.byId.set(t.id, t);
      const key = `${t.system_id}/${t.table_name}`;
      const list = this.byTable.get(key);
      if (list) list.push(t);
      else this.byTable.set(key, [t]);
    }
  }

  resolve(systemId: string, input: PublishInput): ForeignKey[] {
    return (input.foreign_keys ?? []).map((key, i) => {
      const ref = key.referenced;
      let datasetId: string | null;
      let schema = ref.schema ?? null;
      let table = ref.table ?? null;
      if (ref.dataset_id) {
        const target = this.byId.get(ref.dataset_id.toLowerCase());
        if (!target) {
          throw new AppError('DATASET_NOT_FOUND', 'The dataset a foreign key references does not exist.', {
            path: ['foreign_keys', i, 'referenced', 'dataset_id'],
          });
        }
        datasetId = target.id;
        schema ??= target.schema_name;
        table ??= target.table_name;
      } else {
        const matches = (table === null ? [] : (this.byTable.get(`${systemId}/${table}`) ?? [])).filter(
          (t) => schema === null || t.schema_name === schema,
        );
        datasetId = matches.length === 1 ? (matches[0]?.id ?? null) : null;
      }
      return {
        name: key.name,
        columns: key.columns,
        referenced: { dataset_id: datasetId, schema, table, columns: ref.columns },
        on_update: key.on_update,
        on_delete: key.on_delete,
      };
    });
  }
}
