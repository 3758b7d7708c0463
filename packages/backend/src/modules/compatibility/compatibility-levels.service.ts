import type {
  CompatibilityLevel,
  DatasetCompatibility,
  RegistryCompatibility,
  SystemCompatibility,
} from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user.js';
import { AppError } from '../../common/errors/app-error.js';
import { Transactions } from '../../database/transactions.js';
import { CompatibilityLevelsRepository } from './compatibility-levels.repository.js';
import { effectiveLevel } from './compatibility-levels.js';

/**
 * Compatibility levels (ADR 0048): the registry's default, a system's default, a dataset's own, and
 * the one that applies to a dataset's next publish. Set by superusers only (the routes say so).
 */
@Injectable()
export class CompatibilityLevelsService {
  constructor(
    private readonly levels: CompatibilityLevelsRepository,
    private readonly tx: Transactions,
  ) {}

  async registry(): Promise<RegistryCompatibility> {
    return { level: await this.tx.run((m) => this.levels.registryLevel(m)) };
  }

  async setRegistry(level: CompatibilityLevel, actor: AuthUser): Promise<RegistryCompatibility> {
    await this.tx.run((m) => this.levels.setRegistryLevel(level, actor.id, m));
    return { level };
  }

  system(systemId: string): Promise<SystemCompatibility> {
    return this.tx.run((m) => this.systemIn(systemId, m));
  }

  setSystem(
    systemId: string,
    level: CompatibilityLevel | null,
    actor: AuthUser,
  ): Promise<SystemCompatibility> {
    return this.tx.run(async (m) => {
      if (!(await this.levels.setSystemLevel(systemId, level, actor.id, m))) {
        throw new AppError('SYSTEM_NOT_FOUND');
      }
      return this.systemIn(systemId, m);
    });
  }

  dataset(datasetId: string): Promise<DatasetCompatibility> {
    return this.tx.run((m) => this.datasetIn(datasetId, m));
  }

  setDataset(
    datasetId: string,
    level: CompatibilityLevel | null,
    actor: AuthUser,
  ): Promise<DatasetCompatibility> {
    return this.tx.run(async (m) => {
      if (!(await this.levels.setDatasetLevel(datasetId, level, actor.id, m))) {
        throw new AppError('DATASET_NOT_FOUND');
      }
      return this.datasetIn(datasetId, m);
    });
  }

  /** The levels of many datasets (the live ones), in one query: what their next publishes apply. */
  async ofDatasets(
    datasetIds: readonly string[],
    m: EntityManager,
  ): Promise<Map<string, DatasetCompatibility>> {
    const stored = await this.levels.datasetLevels(datasetIds, m);
    return new Map([...stored].map(([id, levels]) => [id, effectiveLevel(levels)]));
  }

  private async systemIn(systemId: string, m: EntityManager): Promise<SystemCompatibility> {
    const levels = await this.levels.systemLevels(systemId, m);
    if (!levels) throw new AppError('SYSTEM_NOT_FOUND');
    return {
      system_id: systemId.toLowerCase(),
      level: levels.system_level,
      effective_level: levels.system_level ?? levels.registry_level,
    };
  }

  private async datasetIn(datasetId: string, m: EntityManager): Promise<DatasetCompatibility> {
    const found = (await this.ofDatasets([datasetId], m)).get(datasetId.toLowerCase());
    if (!found) throw new AppError('DATASET_NOT_FOUND');
    return found;
  }
}
