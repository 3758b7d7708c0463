import type {
  ConnectionProfile,
  CreateConnectionProfile,
  ListQuery,
  Page,
  ProfileSecret,
  UpdateConnectionProfile,
} from '@aide/schemas';
import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user.js';
import type { CrudService } from '../../common/crud/crud-service.js';
import { assertWorkspaceInScope, scopeListToWorkspaces } from '../../common/auth/workspace-scope.js';
import { splitUpdate } from '../../common/crud/update-input.js';
import { AppError } from '../../common/errors/app-error.js';
import { Transactions } from '../../database/transactions.js';
import { CredentialRefsLookup } from '../credential-refs/credential-refs.lookup.js';
import {
  connectionTypeFitsKind,
  exportConnection,
  inlineSecretKeys,
} from '../datacoolie/connection-export.js';
import { underDataCoolieRules } from '../datacoolie/datacoolie-errors.js';
import { DataflowChecker } from '../datacoolie/dataflow-checker.js';
import { WorkspacesLookup } from '../workspaces/workspaces.lookup.js';
import type { ConnectionProfileEntity } from './connection-profile.entity.js';
import { toConnectionProfile } from './connection-profile.mapper.js';
import { ConnectionProfilesRepository } from './connection-profiles.repository.js';

/** The columns the checks read, from a create body or from a stored row with an update applied. */
interface ProfileColumns {
  workspace_id: string;
  system_id: string;
  name: string;
  connection_type: string;
  format: string;
  catalog?: string | null | undefined;
  database?: string | null | undefined;
  configure?: Record<string, unknown> | undefined;
  use_schema_hint?: boolean | undefined;
  is_active?: boolean | undefined;
}

@Injectable()
export class ConnectionProfilesService implements CrudService<
  ConnectionProfile,
  CreateConnectionProfile,
  UpdateConnectionProfile
> {
  constructor(
    private readonly profiles: ConnectionProfilesRepository,
    private readonly workspaces: WorkspacesLookup,
    private readonly credentialRefs: CredentialRefsLookup,
    private readonly checker: DataflowChecker,
    private readonly tx: Transactions,
  ) {}

  private async read(rows: ConnectionProfileEntity[], m?: EntityManager): Promise<ConnectionProfile[]> {
    const secrets = await this.profiles.secretsOf(
      rows.map((r) => r.id),
      m,
    );
    return rows.map((row) => toConnectionProfile(row, secrets.get(row.id) ?? []));
  }

  async list(query: ListQuery, actor: AuthUser): Promise<Page<ConnectionProfile>> {
    const page = await this.profiles.crud.findPage(scopeListToWorkspaces(query, actor));
    return { ...page, items: await this.read(page.items) };
  }

  async get(id: string, actor: AuthUser): Promise<ConnectionProfile> {
    const row = await this.profiles.crud.getActive(id);
    assertWorkspaceInScope(actor, row.workspace_id);
    const [profile] = await this.read([row]);
    return profile;
  }

  /**
   * A profile must make a valid DataCoolie connection (reference §8.7): a connection type its system's
   * kind can serve, a format of that type, DataCoolie's own rules (auth settings, secrets_ref), and no
   * secret given as a value. Referenced rows are share-locked until the transaction ends.
   */
  private async assertValid(
    id: string,
    columns: ProfileColumns,
    secrets: readonly ProfileSecret[],
    m: EntityManager,
  ): Promise<void> {
    await this.workspaces.lockActive(columns.workspace_id, m);
    const system = await this.checker.systemOf(columns.system_id, m);
    if (!system) throw new AppError('SYSTEM_NOT_FOUND');
    if (!connectionTypeFitsKind(columns.connection_type, system.kind_code)) {
      throw new AppError(
        'CONNECTION_PROFILE_SYSTEM_MISMATCH',
        `A ${system.kind_code} system cannot back a ${columns.connection_type} connection.`,
        { system_kind: system.kind_code, connection_type: columns.connection_type },
      );
    }
    const fields = secrets.map((s) => s.configure_field);
    const repeated = fields.filter((field, i) => fields.indexOf(field) !== i);
    if (repeated.length > 0) {
      throw new AppError('CONNECTION_PROFILE_INVALID', 'Each configure field may have one secret only.', {
        fields: [...new Set(repeated)],
      });
    }
    const inline = inlineSecretKeys(columns.configure ?? {}, fields);
    if (inline.length > 0)
      throw new AppError('CONNECTION_PROFILE_SECRET_INLINE', undefined, { fields: inline });
    const refs = await this.credentialRefs.lockActiveMany(
      secrets.map((s) => s.credential_ref_id),
      m,
    );
    const missing = secrets.filter((s) => !refs.has(s.credential_ref_id));
    if (missing.length > 0) {
      throw new AppError('CREDENTIAL_REF_NOT_FOUND', undefined, {
        credential_ref_ids: missing.map((s) => s.credential_ref_id),
      });
    }
    const secretRefs = secrets.map((s) => {
      const ref = refs.get(s.credential_ref_id)!;
      return { configure_field: s.configure_field, provider: ref.provider, path: ref.path };
    });
    underDataCoolieRules('CONNECTION_PROFILE_INVALID', () =>
      exportConnection({
        profile: {
          id,
          workspace_id: columns.workspace_id,
          name: columns.name,
          connection_type: columns.connection_type,
          format: columns.format,
          catalog: columns.catalog ?? null,
          database: columns.database ?? null,
          configure: columns.configure ?? {},
          use_schema_hint: columns.use_schema_hint ?? true,
          is_active: columns.is_active ?? true,
        },
        system,
        secrets: secretRefs,
      }),
    );
  }

  create(input: CreateConnectionProfile, actor: AuthUser): Promise<ConnectionProfile> {
    return this.tx.run((m) => this.createIn(input, actor, m));
  }

  /**
   * `create` in the caller's transaction. `configureKeys`: the order of an `as_written` profile's
   * configure keys, secret fields in their places (a DataCoolie import gives the document's order;
   * else the configure's keys then the secret fields).
   */
  async createIn(
    input: CreateConnectionProfile,
    actor: AuthUser,
    m: EntityManager,
    options: { configureKeys?: readonly string[] } = {},
  ): Promise<ConnectionProfile> {
    const { configureKeys } = options;
    const { secrets = [], ...columns } = input;
    assertWorkspaceInScope(actor, columns.workspace_id);
    // The id is the exported connection_id; any valid one will do for the checks.
    if (columns.id !== undefined && (await this.profiles.crud.findAny(columns.id, m))) {
      throw new AppError(
        'CONNECTION_PROFILE_ALREADY_EXISTS',
        'A connection profile with this id already exists.',
        {
          id: columns.id,
        },
      );
    }
    await this.assertValid(columns.id ?? '00000000-0000-4000-8000-000000000000', columns, secrets, m);
    const id = columns.id ?? randomUUID();
    const row = await this.profiles.crud.insert(
      {
        ...columns,
        id,
        datacoolie_id: columns.datacoolie_id ?? id,
        configure_keys: columns.as_written
          ? [
              ...(configureKeys ?? [
                ...Object.keys(columns.configure ?? {}),
                ...secrets.map((s) => s.configure_field),
              ]),
            ]
          : null,
      },
      actor.id,
      m,
    );
    await this.profiles.replaceSecrets(row.id, secrets, m);
    return (await this.read([row], m))[0];
  }

  /**
   * The profile's dataflows must stay valid: each is checked again against the changed profile (its
   * format, type or configure may no longer reach its datasets or satisfy DataCoolie's rules).
   */
  update(
    id: string,
    input: UpdateConnectionProfile,
    ifMatch: number | undefined,
    actor: AuthUser,
  ): Promise<ConnectionProfile> {
    return this.tx.run((m) => this.updateIn(id, input, ifMatch, actor, m));
  }

  /**
   * `update` in the caller's transaction. `configureKeys` as in `createIn` (given: stored as is).
   * `recheckDataflows: false` leaves the recheck of the profile's dataflows to the caller, which changes
   * them in the same transaction first (a DataCoolie import moving a lakehouse and its tables).
   */
  async updateIn(
    id: string,
    input: UpdateConnectionProfile,
    ifMatch: number | undefined,
    actor: AuthUser,
    m: EntityManager,
    options: { configureKeys?: readonly string[] | null; recheckDataflows?: boolean } = {},
  ): Promise<ConnectionProfile> {
    const { configureKeys, recheckDataflows = true } = options;
    const { changes, version } = splitUpdate(input, ifMatch);
    const { secrets: newSecrets, ...columnChanges } = changes;
    const current = await this.profiles.crud.getActive(id, m, 'update');
    assertWorkspaceInScope(actor, current.workspace_id);
    const secrets = newSecrets ?? (await this.profiles.secretsOf([id], m)).get(id) ?? [];
    await this.assertValid(id, { ...current, ...columnChanges }, secrets, m);
    const keys = configureKeys === undefined ? {} : { configure_keys: configureKeys && [...configureKeys] };
    const row = await this.profiles.crud.update(id, { ...columnChanges, ...keys }, version, actor.id, m);
    if (newSecrets !== undefined) await this.profiles.replaceSecrets(id, newSecrets, m);
    if (recheckDataflows) await this.checker.recheckProfileDataflows(id, m);
    return (await this.read([row], m))[0];
  }

  /** Referenced profiles cannot be deleted (reference §8.7): their dataflows would lose an end. */
  remove(id: string, actor: AuthUser): Promise<ConnectionProfile> {
    return this.tx.run((m) => this.removeIn(id, actor, m));
  }

  /** `remove` in the caller's transaction. */
  async removeIn(id: string, actor: AuthUser, m: EntityManager): Promise<ConnectionProfile> {
    assertWorkspaceInScope(actor, (await this.profiles.crud.getActive(id, m, 'update')).workspace_id);
    const dataflows = await this.profiles.dependentDataflowIds(id, m);
    if (dataflows.length > 0) {
      throw new AppError('HAS_DEPENDENT_ENTITIES', undefined, { dataflows: dataflows.length });
    }
    return (await this.read([await this.profiles.crud.softDelete(id, actor.id, m)], m))[0];
  }

  /** Restore checks the profile again: its workspace, system and credential references may be gone. */
  restore(id: string, actor: AuthUser): Promise<ConnectionProfile> {
    return this.tx.run(async (m) => {
      const row = await this.profiles.crud.findAny(id, m);
      if (row) assertWorkspaceInScope(actor, row.workspace_id);
      if (row?.deleted_at) {
        const secrets = (await this.profiles.secretsOf([id], m)).get(id) ?? [];
        await this.assertValid(id, row, secrets, m);
      }
      return (await this.read([await this.profiles.crud.restore(id, actor.id, m)], m))[0];
    });
  }
}
