import type { DataflowSourceKind } from '@aide/schemas';
import { casefold, type Connection, type DataFlow } from '@aide/schemas/datacoolie';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppError } from '../../common/errors/app-error.js';
import { exportConnection, type ProfileExportInput, type ProfileSystem } from './connection-export.js';
import { DatacoolieScopeRepository, type ScopedProfile } from './datacoolie-scope.repository.js';
import { underDataCoolieRules } from './datacoolie-errors.js';
import { exportDataflow, type DataflowRow } from './dataflow-export.js';
import { addressDataset, type DatasetAddress, type DatasetForAddress } from './dataset-address.js';

/** A dataflow as written: its columns, after an update's changes are applied to the stored row. */
export interface DataflowDraft extends DataflowRow {
  source_connection_id: string;
  source_dataset_id: string | null;
  destination_connection_id: string;
  destination_dataset_id: string;
}

export interface CheckedDataflow {
  sourceKind: DataflowSourceKind;
  source: {
    profile: ProfileExportInput;
    connection: Connection;
    dataset: DatasetForAddress | null;
    address: DatasetAddress | null;
  };
  destination: {
    profile: ProfileExportInput;
    connection: Connection;
    dataset: DatasetForAddress;
    address: DatasetAddress;
  };
  exported: DataFlow;
}

type Role = 'source' | 'destination';

/**
 * What a dataflow names in its datasets' schemas, as stored before a write: the column checks look
 * only at names a write introduces (null: a new dataflow, every name is introduced).
 */
export type DataflowColumnsBefore = Pick<
  DataflowDraft,
  | 'source_dataset_id'
  | 'destination_dataset_id'
  | 'source_watermark_columns'
  | 'merge_keys'
  | 'partition_columns'
>;

/** The profile columns a connection export reads: a profile edit changing none of them changes no dataflow. */
const PROFILE_EXPORT_COLUMNS = [
  'name',
  'connection_type',
  'format',
  'catalog',
  'database',
  'configure',
  'use_schema_hint',
  'is_active',
  'as_written',
  'configure_keys',
] as const;

type ProfileExportColumns = Partial<Record<(typeof PROFILE_EXPORT_COLUMNS)[number], unknown>>;

/** JSON with object keys sorted: equal values compare equal whatever their key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value ?? null, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

function sameExport(before: ProfileExportColumns, after: ProfileExportColumns): boolean {
  return PROFILE_EXPORT_COLUMNS.every((c) => canonical(before[c]) === canonical(after[c]));
}

/** What a dataflow's source reads: exactly one of a dataset, a query and a function. */
export function sourceKindOf(
  draft: Pick<DataflowDraft, 'source_dataset_id' | 'source_query' | 'source_python_function'>,
): DataflowSourceKind {
  const kinds: DataflowSourceKind[] = [];
  if (draft.source_dataset_id !== null) kinds.push('dataset');
  if (draft.source_query !== null) kinds.push('query');
  if (draft.source_python_function !== null) kinds.push('function');
  if (kinds.length !== 1) {
    throw new AppError(
      'DATAFLOW_SOURCE_INVALID',
      'Give exactly one of source_dataset_id, source_query and source_python_function.',
      { given: kinds },
    );
  }
  return kinds[0];
}

/** Names of `wanted` that are not among `columns` (compared case-insensitively, as DataCoolie matches). */
function missingColumns(wanted: readonly string[], columns: readonly string[] | undefined): string[] {
  if (columns === undefined) return [];
  const known = new Set(columns.map(casefold));
  return wanted.filter((name) => !known.has(casefold(name)));
}

/**
 * The names of `now` a write introduces: all of them for another dataset (or a new dataflow), else
 * those `before` did not name. A kept name is not re-checked: the schema may have moved under it.
 */
function introduced(
  now: readonly string[],
  before: readonly string[] | undefined,
  sameDataset: boolean,
): string[] {
  if (before === undefined || !sameDataset) return [...now];
  const kept = new Set(before.map(casefold));
  return now.filter((name) => !kept.has(casefold(name)));
}

const plainPartitions = (partitions: DataflowDraft['partition_columns']) =>
  partitions.filter((p) => !p.expression).map((p) => p.column);

/**
 * The write-time invariants of a dataflow (reference §8.7), checked against the rows it names, which
 * stay share-locked until the caller's transaction ends: profiles of the dataflow's workspace, a source
 * of one kind through a fitting profile, datasets on the profiles' systems and addressable through
 * them, columns of the datasets' current versions, and DataCoolie's own model rules on the export.
 */
@Injectable()
export class DataflowChecker {
  constructor(private readonly scope: DatacoolieScopeRepository) {}

  /** An active system with what a connection export reads of it (kind, flavor), or undefined. */
  systemOf(systemId: string, m: EntityManager): Promise<ProfileSystem | undefined> {
    return this.scope.systemOf(systemId, m);
  }

  /**
   * The active dataflows through a connection profile, checked again after the profile changed for
   * what the profile determines: its format, type or configure may no longer reach their datasets or
   * satisfy DataCoolie's rules, and the hint keys of the sources it reads are addressed through it.
   * Their columns are the datasets' business, not the profile's, and an edit changing nothing a
   * connection export reads changes no dataflow: neither is re-checked.
   * The first that fails is DATAFLOW_INVALID, its own error as the cause.
   */
  async recheckProfileDataflows(
    profileId: string,
    before: ProfileExportColumns | null,
    after: ProfileExportColumns | null,
    m: EntityManager,
  ): Promise<void> {
    // Without both sides (an import's re-check after its own writes) every dataflow is checked.
    if (before && after && sameExport(before, after)) return;
    for (const row of await this.scope.profileDataflows(profileId, m)) {
      try {
        const checked = await this.checkEnds(row, m);
        if (row.source_connection_id === profileId) await this.checkSourceKey(row.id, row, checked, m);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        throw new AppError(
          'DATAFLOW_INVALID',
          `The change would break dataflow '${row.name}': ${error.message}`,
          {
            dataflow_id: row.id,
            cause: { error_code: error.code, details: error.details ?? null },
          },
        );
      }
    }
  }

  /**
   * Every invariant of a dataflow write. `before` is the stored dataflow an update or a restore starts
   * from: only the column names the write introduces are checked against the current versions.
   */
  async check(
    draft: DataflowDraft,
    m: EntityManager,
    before: DataflowColumnsBefore | null = null,
  ): Promise<CheckedDataflow> {
    const checked = await this.checkEnds(draft, m);
    await this.checkColumns(draft, before, m);
    await this.checkPinnedHintVersion(draft, checked.exported, m);
    return checked;
  }

  /**
   * What the profiles determine: a source of one kind through a fitting profile, datasets on the
   * profiles' systems and addressable through them, and DataCoolie's model rules on the export.
   */
  private async checkEnds(draft: DataflowDraft, m: EntityManager): Promise<CheckedDataflow> {
    const sourceKind = sourceKindOf(draft);
    const profiles = await this.scope.profiles(
      [draft.source_connection_id, draft.destination_connection_id],
      m,
      true,
    );
    const sourceProfile = this.profileFor(profiles, draft, 'source');
    const destinationProfile = this.profileFor(profiles, draft, 'destination');
    const sourceType = sourceProfile.profile.connection_type;
    if ((sourceKind === 'function') !== (sourceType === 'function')) {
      throw new AppError(
        'DATAFLOW_SOURCE_INVALID',
        sourceKind === 'function'
          ? 'A function source is read through a function connection profile.'
          : `A ${sourceKind} source cannot be read through a function connection profile.`,
        { source_kind: sourceKind, connection_type: sourceType },
      );
    }
    const datasets = await this.scope.datasetsById(
      [draft.destination_dataset_id, ...(draft.source_dataset_id ? [draft.source_dataset_id] : [])],
      m,
      true,
    );
    const source = this.end(sourceProfile, draft.source_dataset_id, datasets, 'source');
    const destination = this.end(destinationProfile, draft.destination_dataset_id, datasets, 'destination');
    const exported = underDataCoolieRules('DATAFLOW_INVALID', () =>
      exportDataflow(draft, {
        source: source.connection,
        sourceAddress: source.address,
        destination: destination.connection,
        destinationAddress: destination.address!,
      }),
    );
    return {
      sourceKind,
      source,
      destination: { ...destination, dataset: destination.dataset!, address: destination.address! },
      exported,
    };
  }

  private profileFor(profiles: Map<string, ScopedProfile>, draft: DataflowDraft, role: Role) {
    const id = role === 'source' ? draft.source_connection_id : draft.destination_connection_id;
    const found = profiles.get(id);
    if (!found) throw new AppError('CONNECTION_PROFILE_NOT_FOUND', undefined, { role, connection_id: id });
    if (found.profile.workspace_id !== draft.workspace_id) {
      throw new AppError('DATAFLOW_WORKSPACE_MISMATCH', undefined, {
        role,
        connection_id: id,
        connection_workspace_id: found.profile.workspace_id,
      });
    }
    return found;
  }

  /** One end of the dataflow: its profile exported as a connection, its dataset and address. */
  private end(
    profile: ScopedProfile,
    datasetId: string | null,
    datasets: Map<string, DatasetForAddress>,
    role: Role,
  ) {
    const connection = underDataCoolieRules('CONNECTION_PROFILE_INVALID', () => exportConnection(profile), {
      role,
      connection_id: profile.profile.id,
    });
    if (datasetId === null) return { profile, connection, dataset: null, address: null };
    const dataset = datasets.get(datasetId);
    if (!dataset) throw new AppError('DATASET_NOT_FOUND', undefined, { role, dataset_id: datasetId });
    if (dataset.system_id !== profile.system_id) {
      throw new AppError(
        'DATAFLOW_DATASET_MISMATCH',
        `The ${role} dataset is not on the system of its connection profile.`,
        {
          role,
          dataset_id: datasetId,
          connection_id: profile.profile.id,
        },
      );
    }
    const result = addressDataset(dataset, connection);
    if (!result.ok) {
      throw new AppError(
        'DATAFLOW_DATASET_MISMATCH',
        `The ${role} dataset cannot be addressed: ${result.reason}.`,
        {
          role,
          dataset_id: datasetId,
          connection_id: profile.profile.id,
        },
      );
    }
    return { profile, connection, dataset, address: result.address };
  }

  /**
   * Schema hints are keyed by `(connection, schema, table)`, case-insensitively (reference §8.7): two
   * source datasets of one profile must not share a key (their hint groups would merge), nor may one
   * be read without a schema while another of the same table name has one (the lookup would be
   * ambiguous). Writes of one profile's dataflows are serialised by an advisory lock for this check.
   */
  async checkSourceKey(
    dataflowId: string | null,
    draft: DataflowDraft,
    checked: CheckedDataflow,
    m: EntityManager,
  ) {
    const { dataset, address, connection } = checked.source;
    if (dataset === null || address === null) return;
    await m.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
      `dataflow-source-keys:${draft.source_connection_id}`,
    ]);
    const rows: { id: string }[] = await m.query(
      `SELECT DISTINCT d.source_dataset_id AS id FROM dataflows d
       JOIN datasets ds ON ds.id = d.source_dataset_id
       LEFT JOIN dataset_rdbms r ON r.id = ds.id LEFT JOIN dataset_hive h ON h.id = ds.id
       LEFT JOIN dataset_storage st ON st.id = ds.id LEFT JOIN dataset_sftp sf ON sf.id = ds.id
       WHERE d.source_connection_id = $1 AND d.deleted_at IS NULL
         AND d.source_dataset_id <> $2 AND ($3::uuid IS NULL OR d.id <> $3::uuid)
         AND lower(coalesce(r.table_name, h.table_name,
               regexp_replace(rtrim(coalesce(st.path, sf.path), '/'), '^.*/', ''))) = lower($4)`,
      [draft.source_connection_id, dataset.id, dataflowId, address.table.trim()],
    );
    const others = await this.scope.datasetsById(
      rows.map((r) => r.id),
      m,
    );
    const schema = address.schema_name?.trim() ? casefold(address.schema_name.trim()) : null;
    for (const other of others.values()) {
      const result = addressDataset(other, connection);
      if (!result.ok || casefold(result.address.table.trim()) !== casefold(address.table.trim())) continue;
      const otherSchema = result.address.schema_name?.trim()
        ? casefold(result.address.schema_name.trim())
        : null;
      if (schema === otherSchema || schema === null || otherSchema === null) {
        throw new AppError('DATAFLOW_SOURCE_KEY_CONFLICT', undefined, {
          source_dataset_id: dataset.id,
          conflicting_dataset_id: other.id,
          connection_id: connection.connection_id,
          schema_name: address.schema_name,
          table: address.table,
        });
      }
    }
  }

  /**
   * A pinned hint schema version (reference §8.5) is a version of the dataflow's source dataset, and
   * the dataflow carries no inline hints of its own (the pinned version's are exported there).
   */
  private async checkPinnedHintVersion(draft: DataflowDraft, exported: DataFlow, m: EntityManager) {
    const versionId = draft.pinned_hint_schema_version_id;
    if (versionId === null || versionId === undefined) return;
    const details = { pinned_hint_schema_version_id: versionId, source_dataset_id: draft.source_dataset_id };
    if (draft.source_dataset_id === null) {
      throw new AppError(
        'DATAFLOW_INVALID',
        'Only a dataflow reading a dataset can pin a hint schema version.',
        details,
      );
    }
    const datasetId = await this.scope.schemaVersionDataset(versionId, m);
    if (datasetId !== draft.source_dataset_id) {
      throw new AppError(
        'DATAFLOW_INVALID',
        datasetId === undefined
          ? 'The pinned hint schema version does not exist.'
          : 'The pinned hint schema version is not a version of the source dataset.',
        details,
      );
    }
    if (exported.transform.schema_hints.length > 0) {
      throw new AppError(
        'DATAFLOW_INVALID',
        'A dataflow pinning a hint schema version cannot also carry transform.schema_hints: the pinned version is exported there.',
        details,
      );
    }
  }

  /**
   * Watermark columns are the source's, merge keys and partition columns (those without an expression)
   * the destination's (a registry-only check, reference §8.7). Only names the write introduces are
   * checked, and a dataset without a current version has nothing to check them against.
   */
  private async checkColumns(
    draft: DataflowDraft,
    before: DataflowColumnsBefore | null,
    m: EntityManager,
  ): Promise<void> {
    const sameSource = before?.source_dataset_id === draft.source_dataset_id;
    const sameDestination = before?.destination_dataset_id === draft.destination_dataset_id;
    const watermarks = draft.source_dataset_id
      ? introduced(draft.source_watermark_columns, before?.source_watermark_columns, sameSource)
      : [];
    const mergeKeys = introduced(draft.merge_keys, before?.merge_keys, sameDestination);
    const partitions = introduced(
      plainPartitions(draft.partition_columns),
      before ? plainPartitions(before.partition_columns) : undefined,
      sameDestination,
    );
    if (watermarks.length + mergeKeys.length + partitions.length === 0) return;
    const ids = [draft.destination_dataset_id, ...(draft.source_dataset_id ? [draft.source_dataset_id] : [])];
    const columns = await this.scope.currentColumns(ids, m);
    const destination = columns.get(draft.destination_dataset_id);
    const missing: Record<string, string[]> = {};
    const unknownWatermarks = draft.source_dataset_id
      ? missingColumns(watermarks, columns.get(draft.source_dataset_id))
      : [];
    if (unknownWatermarks.length > 0) missing['source_watermark_columns'] = unknownWatermarks;
    const unknownKeys = missingColumns(mergeKeys, destination);
    if (unknownKeys.length > 0) missing['merge_keys'] = unknownKeys;
    const unknownPartitions = missingColumns(partitions, destination);
    if (unknownPartitions.length > 0) missing['partition_columns'] = unknownPartitions;
    if (Object.keys(missing).length > 0) throw new AppError('DATAFLOW_UNKNOWN_COLUMNS', undefined, missing);
  }
}
