// A DataCoolie metadata document moved into a registry workspace (`aide-provider import`): each
// connection becomes a connection profile over an existing system (its secret fields credential
// references), each table a dataflow reads or writes a dataset of that system, each dataflow a
// dataflow, each hint group the first schema version of its table's dataset (its hints' format,
// default_value and is_active the dataset's schema-hint overrides in the workspace). Ids that are UUIDs are
// kept (dataflow ids key the watermarks). What cannot be mapped is reported, never guessed:
// a connection with no (or several) matching systems, a hint type the system's flavor lacks, a row
// the registry refuses (its error code and message). Things already there are reused, so importing
// the same document twice creates nothing the second time.
import type {
  ConnectionProfile,
  CreateDataflow,
  CreateDataset,
  DataType,
  Dataset,
  PublishColumn,
  System,
  Workspace,
} from '@aide/schemas';
import {
  type Connection,
  databaseFamilyOf,
  type DataFlow,
  type JsonObject,
  usesSchemaHint,
} from '@aide/schemas/datacoolie';
import { type AideClient, NotFoundError } from '@aide/sdk';
import { loadMetadataDocuments, type MetadataDocumentSource } from '../document.js';
import type { SchemaHintGroup } from '../schema-hints.js';
import { validateInitializedScope } from '../validation.js';
import { hintColumn } from './hint-column.js';

export interface ImportOptions {
  /** The workspace: its id or code. A code that names no workspace creates one. */
  workspace: string;
  /** Plan only: reads the registry, writes nothing. */
  dryRun?: boolean;
  /** Connection name → the system (id or code) its profile is made over, where matching cannot tell. */
  systems?: Readonly<Record<string, string>>;
}

export type ImportAction = 'created' | 'existing' | 'would create';

export interface ImportItem {
  kind:
    | 'workspace'
    | 'connection'
    | 'credential_ref'
    | 'dataset'
    | 'dataflow'
    | 'schema_version'
    | 'schema_hint_overrides';
  /** The item's name in the document (a connection or dataflow name, a table key). */
  name: string;
  action: ImportAction;
  /** The registry id (absent for a planned creation without a document id). */
  id?: string | undefined;
}

export interface ImportProblem {
  kind: ImportItem['kind'] | 'schema_hint';
  name: string;
  reason: string;
}

export interface ImportReport {
  workspace: string;
  dryRun: boolean;
  items: ImportItem[];
  /** What could not be mapped, and why (the rest was imported). */
  skipped: ImportProblem[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Keys a system's `extra` gives a connection's configure on export (see docs/provider.md). */
const ENDPOINT_KEYS = ['host', 'port', 'url', 'driver', 'base_path'] as const;
function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function all<T>(pages: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of pages) out.push(item);
  return out;
}

interface SystemInfo {
  system: System;
  kind: string;
  flavor: string;
}

/** The state one import works on: what the registry holds, and what this run made. */
class Importer {
  readonly report: ImportReport;
  private workspace: Workspace | null = null;
  private systems: SystemInfo[] = [];
  /** Connection id (in the document) → profile id and system, for the connections imported. */
  private readonly profiles = new Map<string, { id: string; system: SystemInfo; connection: Connection }>();
  private readonly datasets = new Map<string, string>();
  private readonly types = new Map<string, DataType[]>();

  constructor(
    private readonly client: AideClient,
    private readonly options: ImportOptions,
  ) {
    this.report = { workspace: options.workspace, dryRun: options.dryRun === true, items: [], skipped: [] };
  }

  private get dry(): boolean {
    return this.report.dryRun;
  }

  private item(kind: ImportItem['kind'], name: string, action: ImportAction, id?: string): void {
    this.report.items.push({ kind, name, action, ...(id === undefined ? {} : { id }) });
  }

  private skip(kind: ImportProblem['kind'], name: string, reason: string): void {
    this.report.skipped.push({ kind, name, reason });
  }

  async run(connections: Connection[], dataflows: DataFlow[], hints: SchemaHintGroup[]): Promise<void> {
    if (!(await this.resolveWorkspace())) return;
    await this.loadSystems();
    // Inline connections of dataflows are connections too (the document validated their identity).
    const all = new Map(connections.map((c) => [c.connection_id, c]));
    for (const dataflow of dataflows) {
      for (const c of [dataflow.source.connection, dataflow.destination.connection]) {
        if (!all.has(c.connection_id)) all.set(c.connection_id, c);
      }
    }
    for (const connection of all.values()) await this.importConnection(connection);
    for (const dataflow of dataflows) await this.importDataflow(dataflow);
    // After the dataflows: a version makes column names checkable, and hints may name only some.
    for (const group of hints) await this.importHints(group, dataflows);
  }

  private async resolveWorkspace(): Promise<boolean> {
    const ref = this.options.workspace;
    try {
      this.workspace = UUID.test(ref)
        ? await this.client.workspaces.get(ref)
        : ((await this.client.workspaces.list({ code: ref })).items[0] ?? null);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
    if (this.workspace) {
      this.item('workspace', ref, 'existing', this.workspace.id);
      return true;
    }
    if (UUID.test(ref)) {
      this.skip('workspace', ref, 'no workspace has this id');
      return false;
    }
    if (this.dry) {
      this.item('workspace', ref, 'would create');
      return true;
    }
    this.workspace = await this.client.workspaces.create({ code: ref, name: ref });
    this.item('workspace', ref, 'created', this.workspace.id);
    return true;
  }

  private async loadSystems(): Promise<void> {
    const [systems, flavors, kinds] = await Promise.all([
      all(this.client.systems.list({ size: 100 })),
      all(this.client.systemFlavors.list({ size: 100 })),
      all(this.client.systemKinds.list({ size: 100 })),
    ]);
    const kindCode = new Map(kinds.map((k) => [k.id, k.code]));
    const flavorOf = new Map(flavors.map((f) => [f.id, f]));
    this.systems = systems.map((system) => {
      const flavor = flavorOf.get(system.flavor_id);
      return { system, flavor: flavor?.code ?? '', kind: kindCode.get(flavor?.kind_id ?? '') ?? '' };
    });
  }

  /** The system a connection's profile is made over: named in the options, else the one that matches. */
  private systemFor(connection: Connection): SystemInfo | string {
    const named = this.options.systems?.[connection.name];
    if (named !== undefined) {
      const found = this.systems.find((s) => s.system.id === named || s.system.code === named);
      return found ?? `no system '${named}' (from --system)`;
    }
    const c = connection.configure;
    const extra = (s: SystemInfo) => s.system.extra ?? {};
    let candidates: SystemInfo[];
    if (connection.connection_type === 'database') {
      candidates = this.systems.filter(
        (s) =>
          s.kind === 'rdbms' &&
          (c['database_type'] === undefined || databaseFamilyOf(s.flavor) === c['database_type']) &&
          c['host'] !== undefined &&
          extra(s)['host'] === c['host'] &&
          (c['port'] === undefined ||
            extra(s)['port'] === undefined ||
            Number(extra(s)['port']) === Number(c['port'])),
      );
    } else {
      const base = typeof c['base_path'] === 'string' ? c['base_path'].replace(/\/+$/, '') : null;
      candidates = this.systems.filter((s) => {
        const root = extra(s)['base_path'];
        return (
          typeof root === 'string' && base !== null && `${base}/`.startsWith(`${root.replace(/\/+$/, '')}/`)
        );
      });
    }
    if (candidates.length === 0) {
      candidates = this.systems.filter((s) => s.system.code === connection.name);
    }
    if (candidates.length === 1) return candidates[0]!;
    const how = `pass --system ${connection.name}=<system code>`;
    return candidates.length === 0
      ? `no system matches the connection (${how})`
      : `several systems match (${candidates.map((s) => s.system.code).join(', ')}; ${how})`;
  }

  private async importConnection(connection: Connection): Promise<void> {
    const name = connection.name;
    const existing = await this.existingProfile(connection);
    if (typeof existing === 'string') return this.skip('connection', name, existing);
    const system = this.systemFor(connection);
    if (typeof system === 'string') return this.skip('connection', name, system);
    if (existing) {
      this.profiles.set(connection.connection_id, { id: existing.id, system, connection });
      return this.item('connection', name, 'existing', existing.id);
    }
    if (connection.connection_type === 'streaming') {
      return this.skip('connection', name, 'streaming connections have no format DataCoolie can run');
    }
    const configure: JsonObject = structuredClone(connection.configure);
    delete configure['use_schema_hint'];
    const extra = system.system.extra ?? {};
    for (const key of ENDPOINT_KEYS) {
      if (configure[key] !== undefined && JSON.stringify(configure[key]) === JSON.stringify(extra[key]))
        delete configure[key];
    }
    const databaseType = databaseFamilyOf(system.flavor);
    for (const key of ['database_type', 'schema_hint_type_system']) {
      if (connection.connection_type === 'database' && configure[key] === databaseType) delete configure[key];
    }
    const secrets: { configure_field: string; credential_ref_id: string }[] = [];
    for (const [store, fields] of Object.entries(connection.secrets_ref ?? {})) {
      for (const field of fields) {
        const secretName = configure[field];
        delete configure[field];
        if (typeof secretName !== 'string' || secretName === '') {
          this.skip('connection', name, `secret field '${field}' names no secret in configure`);
          continue;
        }
        const ref = await this.credentialRef(store, secretName);
        if (ref) secrets.push({ configure_field: field, credential_ref_id: ref });
      }
    }
    const id = UUID.test(connection.connection_id) ? connection.connection_id : undefined;
    if (id === undefined) {
      this.skip(
        'connection',
        name,
        `connection_id '${connection.connection_id}' is not a UUID: the registry assigns one`,
      );
    }
    if (this.dry) {
      this.profiles.set(connection.connection_id, { id: id ?? connection.connection_id, system, connection });
      return this.item('connection', name, 'would create', id);
    }
    try {
      const profile = await this.client.connectionProfiles.create({
        ...(id === undefined ? {} : { id }),
        workspace_id: this.workspace!.id,
        system_id: system.system.id,
        name,
        connection_type: connection.connection_type as ConnectionProfile['connection_type'],
        format: connection.format as ConnectionProfile['format'],
        catalog: connection.catalog,
        database: connection.database,
        configure,
        use_schema_hint: usesSchemaHint(connection),
        is_active: connection.is_active,
        secrets,
      });
      this.profiles.set(connection.connection_id, { id: profile.id, system, connection });
      this.item('connection', name, 'created', profile.id);
    } catch (error) {
      this.skip('connection', name, describe(error));
    }
  }

  /** The workspace's profile for this connection (same id, or same name), or why it conflicts. */
  private async existingProfile(connection: Connection): Promise<ConnectionProfile | null | string> {
    if (!this.workspace) return null;
    const named = (
      await this.client.connectionProfiles.list({ workspace_id: this.workspace.id, name: connection.name })
    ).items[0];
    if (named && named.id !== connection.connection_id && UUID.test(connection.connection_id)) {
      return `the workspace has a connection '${connection.name}' with another id (${named.id})`;
    }
    return named ?? null;
  }

  private async credentialRef(store: string, secretName: string): Promise<string | null> {
    const found = (await this.client.credentialRefs.list({ provider: store, path: secretName })).items[0];
    if (found) {
      this.item('credential_ref', `${store} ${secretName}`, 'existing', found.id);
      return found.id;
    }
    if (this.dry) {
      this.item('credential_ref', `${store} ${secretName}`, 'would create');
      return `planned:${store}:${secretName}`;
    }
    const created = await this.client.credentialRefs.create({ provider: store, path: secretName });
    this.item('credential_ref', `${store} ${secretName}`, 'created', created.id);
    return created.id;
  }

  /** The dataset a connection reaches at (schema, table), found or created on the profile's system. */
  private async dataset(connectionId: string, schema: string | null, table: string): Promise<string | null> {
    const profile = this.profiles.get(connectionId);
    if (!profile) return null;
    const { system, connection } = profile;
    const label = `${connection.name}: ${schema === null ? '' : `${schema}.`}${table}`;
    let body: CreateDataset;
    const common = { system_id: system.system.id };
    if (connection.connection_type === 'database') {
      if (schema === null) {
        this.skip('dataset', label, 'a database table needs its schema_name');
        return null;
      }
      body = {
        kind: 'rdbms',
        ...common,
        object_name: `${schema}.${table}`,
        schema_name: schema,
        table_name: table,
      };
    } else if (system.kind === 'hive') {
      if (schema === null) {
        this.skip('dataset', label, 'a hive table needs its database (schema_name)');
        return null;
      }
      const uri = system.system.extra?.['catalog_uri'] ?? system.system.extra?.['uri'];
      if (typeof uri !== 'string') {
        this.skip('dataset', label, `hive system '${system.system.code}' has no catalog_uri in its extra`);
        return null;
      }
      body = {
        kind: 'hive',
        ...common,
        catalog_uri: uri,
        object_name: `${schema}.${table}`,
        db_name: schema,
        table_name: table,
        file_format: connection.format,
      };
    } else if (system.kind === 'storage' || system.kind === 'sftp') {
      const base = connection.configure['base_path'];
      if (typeof base !== 'string' || base.trim() === '') {
        this.skip(
          'dataset',
          label,
          `connection '${connection.name}' has no base_path to place the table under`,
        );
        return null;
      }
      const path = [base.replace(/\/+$/, ''), ...(schema === null ? [] : [schema]), table].join('/');
      body = { kind: system.kind, ...common, object_name: path, path, file_format: connection.format };
    } else {
      this.skip('dataset', label, `a ${system.kind} system holds no tables DataCoolie reads or writes`);
      return null;
    }
    const key = `${system.system.id} ${body.object_name}`;
    const known = this.datasets.get(key);
    if (known) return known;
    const found: Dataset | undefined = (
      await this.client.datasets.list({ system_id: system.system.id, object_name: body.object_name })
    ).items[0];
    let id: string;
    if (found) {
      id = found.id;
      this.item('dataset', label, 'existing', id);
    } else if (this.dry) {
      id = `planned:${key}`;
      this.item('dataset', label, 'would create');
    } else {
      try {
        id = (await this.client.datasets.create(body)).id;
        this.item('dataset', label, 'created', id);
      } catch (error) {
        this.skip('dataset', label, describe(error));
        return null;
      }
    }
    this.datasets.set(key, id);
    return id;
  }

  private async importDataflow(dataflow: DataFlow): Promise<void> {
    const name = dataflow.name ?? dataflow.dataflow_id ?? '?';
    const source = this.profiles.get(dataflow.source.connection.connection_id);
    const destination = this.profiles.get(dataflow.destination.connection.connection_id);
    if (!source || !destination) {
      const missing = !source ? dataflow.source.connection.name : dataflow.destination.connection.name;
      return this.skip('dataflow', name, `its connection '${missing}' was not imported`);
    }
    const id =
      dataflow.dataflow_id !== null && UUID.test(dataflow.dataflow_id) ? dataflow.dataflow_id : undefined;
    if (this.workspace && id !== undefined) {
      try {
        const found = await this.client.dataflows.get(id);
        return this.item('dataflow', name, 'existing', found.id);
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
      }
    }
    if (id === undefined) {
      this.skip(
        'dataflow',
        name,
        `dataflow_id '${String(dataflow.dataflow_id)}' is not a UUID: the registry assigns one (watermarks are keyed by the new id)`,
      );
    }
    const src = dataflow.source;
    let sourceRead: Partial<CreateDataflow>;
    if (src.query !== null && src.query.trim() !== '') sourceRead = { source_query: src.query };
    else if (src.python_function !== null && src.python_function.trim() !== '')
      sourceRead = { source_python_function: src.python_function };
    else if (src.table !== null) {
      const dataset = await this.dataset(src.connection.connection_id, src.schema_name, src.table);
      if (dataset === null) return this.skip('dataflow', name, 'its source table could not be mapped');
      sourceRead = { source_dataset_id: dataset };
    } else return this.skip('dataflow', name, 'its source has no table, query or function');
    const dst = dataflow.destination;
    const destinationDataset = await this.dataset(dst.connection.connection_id, dst.schema_name, dst.table);
    if (destinationDataset === null)
      return this.skip('dataflow', name, 'its destination table could not be mapped');
    if (this.dry) return this.item('dataflow', name, 'would create', id);
    try {
      const created = await this.client.dataflows.create({
        ...(id === undefined ? {} : { id }),
        workspace_id: this.workspace!.id,
        name,
        description: dataflow.description,
        stage: dataflow.stage,
        group_number: dataflow.group_number,
        execution_order: dataflow.execution_order,
        processing_mode: dataflow.processing_mode as CreateDataflow['processing_mode'],
        is_active: dataflow.is_active,
        source_connection_id: source.id,
        ...sourceRead,
        source_watermark_columns: src.watermark_columns,
        source_filter_expression: src.filter_expression,
        source_configure: src.configure,
        destination_connection_id: destination.id,
        destination_dataset_id: destinationDataset,
        load_type: dst.load_type as CreateDataflow['load_type'],
        merge_keys: dst.merge_keys,
        partition_columns: dst.partition_columns,
        destination_configure: dst.configure,
        transform: JSON.parse(JSON.stringify(dataflow.transform)) as JsonObject,
        configure: dataflow.configure,
      });
      this.item('dataflow', name, 'created', created.id);
    } catch (error) {
      this.skip('dataflow', name, describe(error));
    }
  }

  private async flavorTypes(flavorId: string): Promise<DataType[]> {
    let types = this.types.get(flavorId);
    if (!types) {
      types = await all(this.client.dataTypes.list({ system_flavor_id: flavorId, size: 100 }));
      this.types.set(flavorId, types);
    }
    return types;
  }

  private async importHints(group: SchemaHintGroup, dataflows: DataFlow[]): Promise<void> {
    const label = `${group.schema_name === null ? '' : `${group.schema_name}.`}${group.table_name}`;
    const profile = this.profiles.get(group.connection_id);
    if (!profile) return this.skip('schema_hint', label, 'its connection was not imported');
    const read = dataflows.some(
      (d) =>
        d.source.connection.connection_id === group.connection_id &&
        d.source.table?.toLowerCase() === group.table_name.toLowerCase(),
    );
    if (!read) {
      this.skip(
        'schema_hint',
        label,
        'no dataflow reads this table: the registry exports hints of dataflow sources only',
      );
    }
    const dataset = await this.dataset(group.connection_id, group.schema_name, group.table_name);
    if (dataset === null) return;
    const types = await this.flavorTypes(profile.system.system.flavor_id);
    const columns: PublishColumn[] = [];
    const problems: string[] = [];
    for (const hint of group.hints) {
      const column = hintColumn(hint, types);
      if (typeof column === 'string') problems.push(`${hint.column_name}: ${column}`);
      else columns.push(column);
    }
    if (problems.length > 0) return this.skip('schema_hint', label, problems.join('; '));
    if (dataset.startsWith('planned:')) {
      this.item('schema_version', label, 'would create');
      return this.importOverrides(group, label, null);
    }
    const [current] = await this.client.datasets.schemaVersions(dataset);
    if (current) this.item('schema_version', label, 'existing', current.dataset_schema_id);
    else if (this.dry) this.item('schema_version', label, 'would create');
    else {
      try {
        const published = await this.client.datasets.publishSchemaVersion(dataset, { columns });
        this.item('schema_version', label, 'created', published.version.dataset_schema_id);
      } catch (error) {
        return this.skip('schema_hint', label, describe(error));
      }
    }
    await this.importOverrides(group, label, dataset);
  }

  /**
   * What the group's hints carry beyond their types — `format`, `default_value`, inactive hints — as
   * the dataset's schema-hint overrides in the workspace (ADR 0030); none to keep, nothing is written.
   */
  private async importOverrides(group: SchemaHintGroup, label: string, dataset: string | null) {
    const overrides = group.hints
      .filter((h) => h.format !== null || h.default_value !== null || !h.is_active)
      .map((h) => ({
        column_name: h.column_name,
        format: h.format,
        default_value: h.default_value,
        is_active: h.is_active,
      }));
    if (overrides.length === 0) return;
    if (dataset === null || this.dry || !this.workspace) {
      return this.item('schema_hint_overrides', label, 'would create');
    }
    try {
      const workspace = this.workspace.id;
      const before = await this.client.datacoolie.schemaHintOverrides(workspace, dataset);
      const after = await this.client.datacoolie.putSchemaHintOverrides(workspace, dataset, { overrides });
      const same = JSON.stringify(before.overrides) === JSON.stringify(after.overrides);
      this.item('schema_hint_overrides', label, same ? 'existing' : 'created', dataset);
    } catch (error) {
      this.skip('schema_hint', label, describe(error));
    }
  }
}

/**
 * Imports DataCoolie metadata documents into a workspace. The documents are loaded and validated as
 * DataCoolie loads them (a document DataCoolie refuses is refused here, with its message); the report
 * says what was created, what already existed, and what could not be mapped.
 */
export async function importWorkspaceDocuments(
  client: AideClient,
  documents: readonly MetadataDocumentSource[],
  options: ImportOptions,
): Promise<ImportReport> {
  const { connections, dataflows, schemaHints } = loadMetadataDocuments(documents);
  validateInitializedScope(connections, dataflows, schemaHints);
  const importer = new Importer(client, options);
  await importer.run(connections, dataflows, schemaHints);
  return importer.report;
}
