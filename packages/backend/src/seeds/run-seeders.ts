import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';

/** A reference-data seeder: idempotent, never deletes. */
export interface Seeder {
  name: string;
  run(dataSource: DataSource, logger: Logger): Promise<void>;
}

/** Seeders run by `pnpm start` and the migrate job. The type-system seeders register here. */
export const SEEDERS: Seeder[] = [];

export async function runSeeders(dataSource: DataSource, logger: Logger): Promise<void> {
  for (const seeder of SEEDERS) {
    await seeder.run(dataSource, logger);
  }
}
