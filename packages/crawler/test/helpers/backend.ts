// The real registry for crawl/apply tests: the built backend (`packages/backend/dist/main.js`, built by
// this package's test script) on a free port, on a database of its own on the test PostgreSQL server
// (AIDE_TEST_PG_URL): a copy of the run's migrated and seeded template (test/global-setup.mjs).
import { randomBytes } from 'node:crypto';
import { AideClient } from '@aide/sdk';
import {
  type BackendServer,
  createDatabase,
  dropDatabase,
  startBackendServer,
} from '../../../backend/test/support/backend-server.mjs';
import { PG_ADMIN_URL, uniqueName } from './postgres.js';

export interface TestBackend {
  baseUrl: string;
  /** The registry's own database (tests take locks in it). */
  databaseUrl: string;
  username: string;
  password: string;
  /** The env vars `crawl` and `apply` read the registry settings from. */
  env: Record<string, string>;
  client(): AideClient;
  /** Registers an rdbms system of a flavor (`postgres14`, `mysql8`, `sqlite3`); returns its code. */
  createSystem(code: string, flavor: string): Promise<string>;
  stop(): Promise<void>;
}

function registryTemplate(): string {
  const template = process.env['AIDE_CRAWLER_TEST_REGISTRY_TEMPLATE'];
  if (!template) throw new Error('no registry template: run the tests through jest (test/global-setup.mjs)');
  return template;
}

export async function startBackend(label: string): Promise<TestBackend> {
  const database = uniqueName(`registry_${label}`);
  const databaseUrl = await createDatabase(PG_ADMIN_URL, database, { template: registryTemplate() });
  const username = 'crawler-admin@example.com';
  const password = `pw-${randomBytes(8).toString('hex')}`;
  let server: BackendServer;
  try {
    server = await startBackendServer({
      databaseUrl,
      superuser: { email: username, password },
      migrateAndSeed: false,
    });
  } catch (error) {
    await dropDatabase(PG_ADMIN_URL, database);
    throw error;
  }
  const { baseUrl } = server;
  const client = () => new AideClient({ baseUrl, username, password });
  return {
    baseUrl,
    databaseUrl,
    username,
    password,
    env: { AIDE_METASTORE_URL: baseUrl, AIDE_METASTORE_USER: username, AIDE_METASTORE_PASSWORD: password },
    client,
    async createSystem(code, flavorCode) {
      const api = client();
      try {
        const flavor = (await api.systemFlavors.list({ code: flavorCode, size: 1 })).items[0];
        if (flavor === undefined) throw new Error(`no flavor ${flavorCode}`);
        await api.systems.create({ code, name: code, flavor_id: flavor.id });
        return code;
      } finally {
        await api.close();
      }
    },
    async stop() {
      await server.stop();
      await dropDatabase(PG_ADMIN_URL, database);
    },
  };
}
