import { basename } from 'node:path';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { seedDirectory } from './type-system.seeder.js';

/** Loads the reference data shipped under `packages/backend/seeds/` (kinds, flavors, data types, cast rules). */
export async function runSeeders(
  dataSource: DataSource,
  logger: Logger,
  options: { dryRun?: boolean } = {},
): Promise<void> {
  for (const report of await seedDirectory(dataSource, undefined, options)) {
    logger.info({ file: basename(report.file), dry_run: options.dryRun ?? false }, `seed ${report.summary}`);
  }
}
