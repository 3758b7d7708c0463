import { describe, expect, it } from '@jest/globals';
import { ConfigError, loadConfig } from './config.js';

const SECRET = 'a-secret-of-at-least-thirty-two-bytes-0123456789';

describe('loadConfig', () => {
  it('defaults to the embedded database, migrating and seeding on start, on port 8001', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8001,
      databaseUrl: undefined,
      migrateOnStart: true,
      seedOnStart: true,
      accessTokenTtlSeconds: 1800,
      bcryptCost: 12,
      metricsToken: undefined,
    });
    expect(config.dataDir.endsWith('.aide')).toBe(true);
  });

  it('does not migrate or seed an external database unless asked', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/aide', AIDE_JWT_SECRET: SECRET });
    expect(config).toMatchObject({ migrateOnStart: false, seedOnStart: false });
    expect(
      loadConfig({
        DATABASE_URL: 'postgres://db/aide',
        AIDE_JWT_SECRET: SECRET,
        AIDE_MIGRATE_ON_START: 'true',
      }).migrateOnStart,
    ).toBe(true);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://db/aide', AIDE_JWT_SECRET: SECRET }, 'DATABASE_URL'],
    [{ AIDE_JWT_SECRET: 'short' }, 'AIDE_JWT_SECRET'],
    [{ DATABASE_URL: 'postgres://db/aide' }, 'AIDE_JWT_SECRET'],
    [{ AIDE_BCRYPT_COST: '10' }, 'AIDE_BCRYPT_COST'],
    [{ AIDE_SUPERUSER_EMAIL: 'me@example.com' }, 'AIDE_SUPERUSER_PASSWORD'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ AIDE_METRICS_TOKEN: 'short' }, 'AIDE_METRICS_TOKEN'],
    [{ AIDE_TRUSTED_PROXIES: '10.0.0.0/8, lb.internal' }, 'AIDE_TRUSTED_PROXIES'],
    [{ AIDE_TRUSTED_PROXIES: '10.0.0.0/33' }, 'AIDE_TRUSTED_PROXIES'],
    [{ AIDE_DB_POOL_SIZE: '4', AIDE_SEARCH_CONCURRENCY: '4' }, 'AIDE_SEARCH_CONCURRENCY'],
    [{ AIDE_SEARCH_CONCURRENCY: '0' }, 'AIDE_SEARCH_CONCURRENCY'],
    [{ AIDE_SEARCH_STATEMENT_TIMEOUT_MS: '0' }, 'AIDE_SEARCH_STATEMENT_TIMEOUT_MS'],
  ])('refuses %j, naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });

  it('reads AIDE_TRUSTED_PROXIES as a list of addresses and CIDR ranges, empty by default', () => {
    expect(loadConfig({}).trustedProxies).toEqual([]);
    expect(
      loadConfig({ AIDE_TRUSTED_PROXIES: ' 10.0.0.0/8, 192.168.1.7 ,fd00::/8,::1' }).trustedProxies,
    ).toEqual(['10.0.0.0/8', '192.168.1.7', 'fd00::/8', '::1']);
  });

  it('gives searches a quarter of the pool, a queue of four times that, and a 5 s statement timeout', () => {
    expect(loadConfig({})).toMatchObject({
      searchConcurrency: 5,
      searchQueue: 20,
      searchStatementTimeoutMs: 5000,
    });
    expect(loadConfig({ AIDE_DB_POOL_SIZE: '2' })).toMatchObject({ searchConcurrency: 1, searchQueue: 4 });
    // A pool of one connection can only share it.
    expect(loadConfig({ AIDE_DB_POOL_SIZE: '1' }).searchConcurrency).toBe(1);
    expect(
      loadConfig({ AIDE_DB_POOL_SIZE: '3', AIDE_SEARCH_CONCURRENCY: '2', AIDE_SEARCH_QUEUE: '0' }),
    ).toMatchObject({ searchConcurrency: 2, searchQueue: 0 });
  });

  it('lets maintenance commands run without a JWT secret', () => {
    expect(
      loadConfig({ DATABASE_URL: 'postgres://db/aide' }, { requireJwtSecret: false }).jwtSecret,
    ).toBeUndefined();
  });
});
