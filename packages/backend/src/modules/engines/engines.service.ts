import {
  type CreateEngine,
  type Engine,
  ENGINE_KIND_ATTRIBUTES,
  ENGINE_ROLE_OF,
  ENGINE_VERSIONS,
  type EngineKind,
  type ListQuery,
  type Page,
  type UpdateEngine,
} from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user.js';
import type { CrudService } from '../../common/crud/crud-service.js';
import { mapPage } from '../../common/crud/list.js';
import { splitByTable } from '../../common/crud/polymorphic.js';
import { splitUpdate } from '../../common/crud/update-input.js';
import { AppError } from '../../common/errors/app-error.js';
import { Transactions } from '../../database/transactions.js';
import type { EngineEntity } from './engine.entity.js';
import { toEngine } from './engine.mapper.js';
import { EnginesRepository } from './engines.repository.js';

function splitByKind(kind: EngineKind, body: Record<string, unknown>) {
  return splitByTable<EngineEntity>(Object.keys(ENGINE_KIND_ATTRIBUTES[kind]), body);
}

/** 422 ENGINE_VERSION_INVALID unless the version is one the kind supports. */
function assertVersion(kind: EngineKind, version: string | undefined): void {
  if (version === undefined || ENGINE_VERSIONS[kind].includes(version)) return;
  throw new AppError(
    'ENGINE_VERSION_INVALID',
    `Version '${version}' is not supported for ${kind}; supported: ${ENGINE_VERSIONS[kind].join(', ')}.`,
    { kind, version, allowed: [...ENGINE_VERSIONS[kind]] },
  );
}

@Injectable()
export class EnginesService implements CrudService<Engine, CreateEngine, UpdateEngine> {
  constructor(
    private readonly engines: EnginesRepository,
    private readonly tx: Transactions,
  ) {}

  async list(query: ListQuery): Promise<Page<Engine>> {
    return mapPage(await this.engines.findPage(query), toEngine);
  }

  async get(id: string): Promise<Engine> {
    return toEngine(await this.engines.getWithDetails(id));
  }

  /** The role follows from the kind; a duplicate active code is ENGINE_CODE_ALREADY_EXISTS (unique index). */
  create(input: CreateEngine, actor: AuthUser): Promise<Engine> {
    assertVersion(input.kind, input.version);
    const { common, details } = splitByKind(input.kind, input);
    return this.tx.run(async (m) => {
      const row = await this.engines.crud.insert(
        { ...common, kind: input.kind, role: ENGINE_ROLE_OF[input.kind] },
        actor.id,
        m,
      );
      await this.engines.reads.insertDetails(input.kind, row.id, details, m);
      return toEngine(await this.engines.getWithDetails(row.id, m));
    });
  }

  /** `kind` must be the stored kind (ENGINE_KIND_IMMUTABLE); the code never changes. */
  update(id: string, input: UpdateEngine, ifMatch: number | undefined, actor: AuthUser): Promise<Engine> {
    const { changes, version } = splitUpdate(input, ifMatch);
    const { common, details } = splitByKind(input.kind, changes);
    return this.tx.run(async (m) => {
      const current = await this.engines.crud.getActive(id, m);
      if (current.kind !== input.kind) {
        throw new AppError('ENGINE_KIND_IMMUTABLE', undefined, { kind: current.kind });
      }
      assertVersion(input.kind, input.version);
      await this.engines.crud.update(id, common, version, actor.id, m);
      await this.engines.reads.updateDetails(input.kind, id, details, m);
      return toEngine(await this.engines.getWithDetails(id, m));
    });
  }

  /** Soft delete, refused while an active dataset link has the engine attached. */
  remove(id: string, actor: AuthUser): Promise<Engine> {
    return this.tx.run(async (m) => {
      await this.engines.crud.getActive(id, m, 'update');
      await this.assertNotInUse(id, m);
      await this.engines.crud.softDelete(id, actor.id, m);
      return toEngine(await this.engines.getWithDetails(id, m, true));
    });
  }

  /**
   * Answers with the whole engine, kind attributes included (the original's restore went through the
   * generic path and could not build the polymorphic read), and re-checks the code: another active
   * engine may have taken it meanwhile.
   */
  restore(id: string, actor: AuthUser): Promise<Engine> {
    return this.tx.run(async (m) => {
      const row = await this.engines.crud.findAny(id, m);
      if (row?.deleted_at && (await this.engines.codeTaken(row.code, id, m))) {
        throw new AppError('ENGINE_CODE_ALREADY_EXISTS', 'Another active engine has taken this code.', {
          code: row.code,
        });
      }
      await this.engines.crud.restore(id, actor.id, m);
      return toEngine(await this.engines.getWithDetails(id, m));
    });
  }

  private async assertNotInUse(id: string, m: EntityManager): Promise<void> {
    const links = await this.engines.countActiveLinks(id, m);
    if (links > 0) {
      throw new AppError(
        'ENGINE_IN_USE',
        'Detach the engine from its dataset links first (engine_id: null).',
        {
          dataset_links: links,
        },
      );
    }
  }
}
