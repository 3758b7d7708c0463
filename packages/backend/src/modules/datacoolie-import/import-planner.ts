// The plan of one import (ADR 0050): every object of the document matched with what the workspace holds
// — connections and dataflows by `datacoolie_id`, hint groups by DataCoolie's key, datasets by system and
// object name, credential references by store and path — as create / update (every changed field) /
// unchanged, and with `prune` delete; each item with the step that writes it through the services the
// REST routes use, so their rules run.
import {
  type CreateConnectionProfile,
  type CreateDataflow,
  type DataCoolieImportProblem,
} from '@aide/schemas';
import { type Connection, LOAD_TYPES, PROCESSING_MODES, usesSchemaHint } from '@aide/schemas/datacoolie';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user.js';
import { AppError } from '../../common/errors/app-error.js';
import type { ConnectionProfilesService } from '../connection-profiles/connection-profiles.service.js';
import type { CredentialRefsService } from '../credential-refs/credential-refs.service.js';
import type { DataflowChecker } from '../datacoolie/dataflow-checker.js';
import type { DataflowsService } from '../dataflows/dataflows.service.js';
import type { DatasetsService } from '../datasets/datasets.service.js';
import type {
  DatacoolieImportRepository,
  ImportDataflowRow,
  ImportDataType,
  ImportHintGroupRow,
  ImportProfileRow,
  ImportSystem,
  StoredHintColumn,
} from './datacoolie-import.repository.js';
import { datasetBodyFor, tableLabel } from './dataset-addressing.js';
import { hintFlavorOf, hintTypeSystemOf, mapHintType } from './hint-types.js';
import type {
  DocumentConnection,
  DocumentDataflow,
  DocumentHintGroup,
  ImportDocument,
} from './import-document.js';
import { DependencyFailed, hintGroupKey, type PlanStep, planItem, written } from './import-plan.js';
import { dataflowChanges, dataflowView } from './dataflow-changes.js';
import { hintChanges } from './hint-changes.js';
import { profileChanges, type SecretField } from './profile-changes.js';
import { fieldChange } from './plan-changes.js';
import { pruneSteps } from './prune-plan.js';
import { matchSystem } from './system-matching.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface PlannerServices {
  repository: DatacoolieImportRepository;
  credentialRefs: CredentialRefsService;
  datasets: DatasetsService;
  profiles: ConnectionProfilesService;
  dataflows: DataflowsService;
  checker: DataflowChecker;
}

export interface PlanOptions {
  /** The workspace's id; null while the plan creates it (then `workspaceId` gives it when applied). */
  workspaceId: string | null;
  resolveWorkspaceId: () => string;
  systems: Readonly<Record<string, string>>;
  prune: boolean;
}

/** A connection as the plan resolved it: its system, and its profile when the workspace has one. */
interface PlannedConnection {
  doc: DocumentConnection;
  system: ImportSystem;
  profile: ImportProfileRow | undefined;
}

const refKey = (provider: string, path: string) => JSON.stringify([provider, path]);
const datasetKey = (systemId: string, objectName: string) => JSON.stringify([systemId, objectName]);

/** Plans one import in the caller's transaction; `steps` then write it. */
export class ImportPlanner {
  readonly steps: PlanStep[] = [];
  /** Checks run after the steps (their items are the steps' own, reported once). */
  readonly rechecks: PlanStep[] = [];
  readonly problems: DataCoolieImportProblem[] = [];
  private readonly refIds = new Map<string, string>();
  private readonly datasetIds = new Map<string, string>();
  /** Connection datacoolie_id → profile id (found now, or created by its step). */
  private readonly profileIds = new Map<string, string>();
  private readonly plannedRefs = new Set<string>();
  private readonly plannedDatasets = new Map<string, string>();
  private readonly typesByFlavor = new Map<string, ImportDataType[]>();
  private connections = new Map<string, PlannedConnection>();

  constructor(
    private readonly services: PlannerServices,
    private readonly actor: AuthUser,
    private readonly m: EntityManager,
    private readonly options: PlanOptions,
  ) {}

  private problem(kind: DataCoolieImportProblem['kind'], name: string, reason: string): void {
    this.problems.push({ kind, name, reason, code: null });
  }

  async plan(doc: ImportDocument): Promise<void> {
    const { repository } = this.services;
    const ws = this.options.workspaceId;
    // One after another: the transaction's connection runs one query at a time.
    const systems = await repository.systems(this.m);
    const profiles = ws ? await repository.profiles(ws, this.m) : [];
    const dataflows = ws ? await repository.dataflows(ws, this.m) : [];
    const groups = ws ? await repository.hintGroups(ws, this.m) : [];
    const credentialSteps: PlanStep[] = [];
    const datasetSteps: PlanStep[] = [];
    const profileSteps: PlanStep[] = [];
    this.resolveConnections(doc, systems, profiles);
    for (const c of this.connections.values()) {
      const secrets = this.secretFields(c.doc);
      if (secrets === null) continue;
      for (const s of secrets) credentialSteps.push(...(await this.credentialRef(s.provider, s.path)));
      profileSteps.push(await this.profile(c, secrets));
    }
    const dataflowSteps: PlanStep[] = [];
    const dataflowsById = new Map(dataflows.map((r) => [r.datacoolie_id, r]));
    for (const d of doc.dataflows) {
      const step = await this.dataflow(d, dataflowsById.get(d.datacoolie_id), datasetSteps);
      if (step) dataflowSteps.push(step);
    }
    const groupSteps: PlanStep[] = [];
    const groupsByKey = new Map(
      groups.map((g) => [hintGroupKey(g.connection_profile_id, g.schema_name, g.table_name), g]),
    );
    for (const [position, group] of doc.hintGroups.entries()) {
      const profileId = this.connections.get(group.connection_id)?.profile?.id;
      const row = profileId && groupsByKey.get(hintGroupKey(profileId, group.schema_name, group.table_name));
      const step = await this.hintGroup(group, position, row || undefined, datasetSteps);
      if (step) groupSteps.push(step);
    }
    this.steps.push(...credentialSteps, ...datasetSteps, ...profileSteps, ...dataflowSteps, ...groupSteps);
    if (this.options.prune) {
      const { dataflows: flows, repository: repo, profiles: profileService } = this.services;
      const profileOf = (connectionId: string) => this.connections.get(connectionId)?.profile?.id;
      const current = { profiles, dataflows, groups };
      this.steps.push(
        ...pruneSteps(doc, profileOf, current, {
          dataflow: async (id, m) => (await flows.removeIn(id, this.actor, m)).id,
          hintGroup: async (id, m) => {
            await repo.deleteHintGroup(id, m);
            return id;
          },
          connection: async (id, m) => (await profileService.removeIn(id, this.actor, m)).id,
        }),
      );
    }
  }

  private resolveConnections(
    doc: ImportDocument,
    systems: readonly ImportSystem[],
    profiles: readonly ImportProfileRow[],
  ): void {
    const byId = new Map(profiles.map((p) => [p.datacoolie_id, p]));
    const systemsById = new Map(systems.map((s) => [s.id, s]));
    for (const c of doc.connections) {
      const profile = byId.get(c.built.connection_id);
      let system: ImportSystem | string;
      if (profile) {
        system = systemsById.get(profile.system_id) ?? 'its system was deleted';
        const named = this.options.systems[c.built.name];
        if (
          typeof system !== 'string' &&
          named !== undefined &&
          named !== system.code &&
          named !== system.id
        ) {
          system = `its profile is over system '${system.code}', not '${named}': a profile's system cannot change`;
        }
      } else {
        system = matchSystem(c.built, systems, this.options.systems);
      }
      if (typeof system === 'string') {
        this.problem('connection', c.built.name, system);
        continue;
      }
      if (profile) this.profileIds.set(c.built.connection_id, profile.id);
      this.connections.set(c.built.connection_id, { doc: c, system, profile });
    }
  }

  /** The secret fields of `secrets_ref` flattened (stores in order, their fields in order). */
  private secretFields(c: DocumentConnection): SecretField[] | null {
    const out: SecretField[] = [];
    for (const [provider, fields] of Object.entries(c.built.secrets_ref ?? {})) {
      for (const field of fields) {
        const path = c.written.configure[field];
        if (typeof path !== 'string' || path === '') {
          this.problem('connection', c.built.name, `secret field '${field}' names no secret in configure`);
          return null;
        }
        out.push({ configure_field: field, provider, path });
      }
    }
    return out;
  }

  private async credentialRef(provider: string, path: string): Promise<PlanStep[]> {
    const key = refKey(provider, path);
    if (this.plannedRefs.has(key)) return [];
    this.plannedRefs.add(key);
    const name = `${provider} ${path}`;
    const id = await this.services.repository.credentialRefId(provider, path, this.m);
    if (id !== null) {
      this.refIds.set(key, id);
      return [{ item: planItem('credential_ref', name, null, { id, changes: [] }) }];
    }
    const apply = async (m: EntityManager) => {
      // The REST route's rule: pointers to secrets are reference data, written by superusers only.
      if (!this.actor.is_superuser) {
        throw new AppError('FORBIDDEN', 'Only superusers create credential references.');
      }
      const created = await this.services.credentialRefs.createIn({ provider, path }, this.actor, m);
      this.refIds.set(key, created.id);
      return created.id;
    };
    return [{ item: planItem('credential_ref', name, null, null), apply }];
  }

  private async profile(c: PlannedConnection, secrets: SecretField[]): Promise<PlanStep> {
    const { built, written: doc } = c.doc;
    const secretNames = new Set(secrets.map((s) => s.configure_field));
    const configure = Object.fromEntries(Object.entries(doc.configure).filter(([k]) => !secretNames.has(k)));
    const configureKeys = Object.keys(doc.configure);
    const columns = {
      name: built.name,
      description: doc.description ?? null,
      connection_type: built.connection_type as CreateConnectionProfile['connection_type'],
      format: built.format as CreateConnectionProfile['format'],
      catalog: built.catalog,
      database: built.database,
      configure,
      use_schema_hint: usesSchemaHint(built),
      is_active: built.is_active,
      as_written: true,
    };
    const secretRows = () =>
      secrets.map((s) => ({
        configure_field: s.configure_field,
        credential_ref_id: written(this.refIds, refKey(s.provider, s.path)),
      }));
    const dcId = built.connection_id;
    const current = c.profile;
    if (current) {
      const changes = profileChanges(current, c.doc, secrets, columns.use_schema_hint);
      let updated = false;
      const apply = async (m: EntityManager) => {
        const body = { ...columns, secrets: secretRows(), row_version: current.row_version };
        await this.services.profiles.updateIn(current.id, body, undefined, this.actor, m, {
          configureKeys,
          recheckDataflows: false,
        });
        updated = true;
        return current.id;
      };
      const item = planItem('connection', built.name, dcId, { id: current.id, changes });
      if (changes.length === 0) return { item };
      // Its dataflows are checked against it once the document's dataflows are written too.
      this.rechecks.push({
        item: { ...item },
        apply: async (m: EntityManager) => {
          if (!updated) throw new DependencyFailed();
          await this.services.checker.recheckProfileDataflows(current.id, m);
          return current.id;
        },
      });
      return { item, apply };
    }
    const keep =
      UUID.test(dcId) && !(await this.services.repository.idTaken('connection_profiles', dcId, this.m));
    const apply = async (m: EntityManager) => {
      const body: CreateConnectionProfile = {
        ...columns,
        ...(keep ? { id: dcId.toLowerCase() } : {}),
        datacoolie_id: dcId,
        workspace_id: this.options.resolveWorkspaceId(),
        system_id: c.system.id,
        secrets: secretRows(),
      };
      const created = await this.services.profiles.createIn(body, this.actor, m, { configureKeys });
      this.profileIds.set(dcId, created.id);
      return created.id;
    };
    return { item: planItem('connection', built.name, dcId, null), apply };
  }

  /**
   * The dataset of a table a connection reaches (found, or planned once with its create step), by its
   * object name; null with a problem when the table cannot be addressed (`problemKind`), or silently
   * when `problemKind` is null.
   */
  private async dataset(
    c: PlannedConnection,
    schema: string | null,
    table: string,
    steps: PlanStep[],
    problemKind: 'dataset' | null,
  ): Promise<{ key: string; objectName: string } | null> {
    const label = tableLabel(c.doc.built.name, schema, table);
    const body = datasetBodyFor(c.doc.built, c.system, schema, table);
    if (typeof body === 'string') {
      if (problemKind) this.problem(problemKind, label, body);
      return null;
    }
    const key = datasetKey(c.system.id, body.object_name);
    if (this.plannedDatasets.has(key)) return { key, objectName: body.object_name };
    this.plannedDatasets.set(key, label);
    const id = await this.services.repository.datasetId(c.system.id, body.object_name, this.m);
    if (id !== null) {
      this.datasetIds.set(key, id);
      steps.push({ item: planItem('dataset', label, null, { id, changes: [] }) });
    } else {
      const apply = async (m: EntityManager) => {
        // The REST route's rule: an API key writes the catalogue with the scope that allows it.
        if (this.actor.key_scopes && !this.actor.key_scopes.includes('catalogue:write')) {
          throw new AppError('FORBIDDEN', 'The API key may not write the catalogue (catalogue:write).');
        }
        const created = await this.services.datasets.createIn(body, this.actor, m);
        this.datasetIds.set(key, created.id);
        return created.id;
      };
      steps.push({ item: planItem('dataset', label, null, null), apply });
    }
    return { key, objectName: body.object_name };
  }

  private async dataflow(
    d: DocumentDataflow,
    row: ImportDataflowRow | undefined,
    datasetSteps: PlanStep[],
  ): Promise<PlanStep | null> {
    const { built } = d;
    const source = this.connections.get(built.source.connection.connection_id);
    const destination = this.connections.get(built.destination.connection.connection_id);
    if (!source || !destination) return null; // the connection's own problem says why
    if (!(PROCESSING_MODES as readonly string[]).includes(built.processing_mode)) {
      this.problem(
        'dataflow',
        d.name,
        `processing_mode '${built.processing_mode}' is not one of ${PROCESSING_MODES.join(', ')}`,
      );
      return null;
    }
    if (!(LOAD_TYPES as readonly string[]).includes(built.destination.load_type)) {
      this.problem(
        'dataflow',
        d.name,
        `load_type '${built.destination.load_type}' is not one of ${LOAD_TYPES.join(', ')}`,
      );
      return null;
    }
    const src = built.source;
    const query = src.query !== null && src.query.trim() !== '' ? src.query : null;
    const fn =
      query === null && src.python_function !== null && src.python_function.trim() !== ''
        ? src.python_function
        : null;
    let sourceTable: { key: string; objectName: string } | null = null;
    if (query === null && fn === null) {
      if (src.table === null) {
        this.problem('dataflow', d.name, 'its source has no table, query or function');
        return null;
      }
      sourceTable = await this.dataset(source, src.schema_name, src.table, datasetSteps, 'dataset');
      if (sourceTable === null) return null;
    }
    const dst = built.destination;
    const destinationTable = await this.dataset(
      destination,
      dst.schema_name,
      dst.table,
      datasetSteps,
      'dataset',
    );
    if (destinationTable === null) return null;
    const view = dataflowView(d, query, fn);
    const ends = () => ({
      source_connection_id: written(this.profileIds, source.doc.built.connection_id),
      source_dataset_id: sourceTable ? written(this.datasetIds, sourceTable.key) : null,
      destination_connection_id: written(this.profileIds, destination.doc.built.connection_id),
      destination_dataset_id: written(this.datasetIds, destinationTable.key),
    });
    if (row) {
      const changes = dataflowChanges(row, view, {
        source: source.doc.built.connection_id,
        sourceDataset: sourceTable?.objectName ?? null,
        destination: destination.doc.built.connection_id,
        destinationDataset: destinationTable.objectName,
      });
      const item = planItem('dataflow', d.name, d.datacoolie_id, { id: row.id, changes });
      if (changes.length === 0) return { item };
      const apply = async (m: EntityManager) => {
        const body = { ...view, ...ends(), row_version: row.row_version };
        await this.services.dataflows.updateIn(row.id, body, undefined, this.actor, m);
        return row.id;
      };
      return { item, apply };
    }
    const keep =
      UUID.test(d.datacoolie_id) &&
      !(await this.services.repository.idTaken('dataflows', d.datacoolie_id, this.m));
    const apply = async (m: EntityManager) => {
      const { source_dataset_id, ...rest } = ends();
      const body: CreateDataflow = {
        ...view,
        ...rest,
        ...(source_dataset_id === null ? {} : { source_dataset_id }),
        ...(keep ? { id: d.datacoolie_id.toLowerCase() } : {}),
        datacoolie_id: d.datacoolie_id,
        workspace_id: this.options.resolveWorkspaceId(),
      };
      return (await this.services.dataflows.createIn(body, this.actor, m)).id;
    };
    return { item: planItem('dataflow', d.name, d.datacoolie_id, null), apply };
  }

  /** The flavor types hints of this type system are checked with; null: unchecked (no flavor). */
  private async hintTypes(connection: Connection): Promise<ImportDataType[] | null> {
    const flavor = hintFlavorOf(hintTypeSystemOf(connection.configure));
    if (flavor === null) return null;
    let types = this.typesByFlavor.get(flavor);
    if (!types) {
      types = await this.services.repository.dataTypes(flavor, this.m);
      this.typesByFlavor.set(flavor, types);
    }
    return types.length > 0 ? types : null;
  }

  private async hintGroup(
    group: DocumentHintGroup,
    position: number,
    row: ImportHintGroupRow | undefined,
    datasetSteps: PlanStep[],
  ): Promise<PlanStep | null> {
    const c = this.connections.get(group.connection_id);
    if (!c) return null; // the connection's own problem says why
    const label = tableLabel(c.doc.built.name, group.schema_name, group.table_name);
    const types = await this.hintTypes(c.doc.built);
    const columns: StoredHintColumn[] = [];
    for (const hint of group.hints) {
      const mapped = types === null ? null : mapHintType(hint, types);
      if (typeof mapped === 'string') {
        this.problem('schema_hint', `${label}.${hint.column_name}`, mapped);
        continue;
      }
      columns.push({
        column_name: hint.column_name,
        data_type: hint.data_type,
        format: hint.format,
        precision: hint.precision,
        scale: hint.scale,
        default_value: hint.default_value,
        ordinal_position: hint.ordinal_position,
        is_active: hint.is_active,
        data_type_id: mapped?.data_type_id ?? null,
        type_params: mapped?.type_params ?? null,
      });
    }
    const table = await this.dataset(c, group.schema_name, group.table_name, datasetSteps, null);
    const values = () => ({
      schema_name: group.schema_name,
      table_name: group.table_name,
      dataset_id: table ? written(this.datasetIds, table.key) : null,
      position,
      updated_by: this.actor.id,
    });
    if (row) {
      const changes = [
        ...fieldChange('schema_name', row.schema_name, group.schema_name),
        ...fieldChange('table_name', row.table_name, group.table_name),
        ...fieldChange('dataset', row.dataset, table?.objectName ?? null),
        ...fieldChange('position', row.position, position),
        ...hintChanges(row.columns, columns),
      ];
      const item = planItem('schema_hint_group', label, null, { id: row.id, changes });
      if (changes.length === 0) return { item };
      const apply = async (m: EntityManager) => {
        await this.services.repository.replaceHintGroup(row.id, values(), columns, m);
        return row.id;
      };
      return { item, apply };
    }
    const apply = async (m: EntityManager) =>
      this.services.repository.insertHintGroup(
        {
          ...values(),
          workspace_id: this.options.resolveWorkspaceId(),
          connection_profile_id: written(this.profileIds, group.connection_id),
          created_by: this.actor.id,
        },
        columns,
        m,
      );
    return { item: planItem('schema_hint_group', label, null, null), apply };
  }
}
