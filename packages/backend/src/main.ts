import { join } from 'node:path';
import { createApp } from './app.factory.js';
import { resolveDatabase } from './bootstrap/database.js';
import { loadOrCreateJwtSecret } from './bootstrap/jwt-secret.js';
import { ensureSuperuser } from './bootstrap/superuser.js';
import { createLogger } from './common/http/logger.js';
import { ConfigError, loadConfig, type ResolvedConfig } from './config/config.js';
import { createDataSource, guardCheckedOutClients } from './database/data-source.js';
import { EmbeddedPostgresError } from './database/embedded-postgres.js';
import { runSeeders } from './seeds/run-seeders.js';

async function main(): Promise<void> {
  const base = loadConfig();
  const logger = createLogger(base);
  const target = await resolveDatabase(base, logger);
  const config: ResolvedConfig = {
    ...base,
    databaseUrl: target.url,
    jwtSecret: base.jwtSecret ?? loadOrCreateJwtSecret(join(base.dataDir, 'jwt-secret')),
  };

  const dataSource = createDataSource({
    url: config.databaseUrl,
    poolSize: config.dbPoolSize,
    jit: config.dbJit,
    onPoolError: (error) => logger.warn({ err: error }, 'database connection lost; the pool reconnects'),
  });
  await dataSource.initialize();
  guardCheckedOutClients(dataSource, (error) =>
    logger.warn({ err: error }, 'database connection lost while in use; the pool reconnects'),
  );
  if (config.migrateOnStart) {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    logger.info({ applied: applied.map((m) => m.name) }, 'migrations applied');
  }
  if (config.seedOnStart) await runSeeders(dataSource, logger);
  const superuser = await ensureSuperuser(dataSource, config, logger);
  if (superuser?.generatedPassword) {
    // Printed once, on the console only: the hash is all that is stored.
    process.stdout.write(
      `\nAIDE superuser created\n  email:    ${superuser.email}\n  password: ${superuser.generatedPassword}\n` +
        '  (shown once; set AIDE_SUPERUSER_EMAIL/AIDE_SUPERUSER_PASSWORD to choose your own)\n\n',
    );
  }

  const app = await createApp(config, dataSource, logger);
  await app.listen({ port: config.port, host: config.host });
  logger.info(
    { port: config.port, host: config.host, embedded: target.embedded !== undefined },
    'AIDE Metastore listening',
  );

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: draining in-flight requests');
    const timer = setTimeout(() => {
      logger.error('shutdown timed out');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    timer.unref();
    await app.close();
    await dataSource.destroy();
    await target.embedded?.stop();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof EmbeddedPostgresError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      `AIDE Metastore failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
