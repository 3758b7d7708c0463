// The registry the crawl/apply tests run against is the real backend, one per test file that needs it
// (test/helpers/backend.ts). Each gets a copy of one template database migrated and seeded here, once
// per run, on the test PostgreSQL server (AIDE_TEST_PG_URL): copying takes a fraction of a second where
// migrating and seeding took most of each backend's start.
// It also packs @aide/schemas, @aide/sdk and @aide/crawler (AIDE_SDK_TEST_TARBALLS) for
// test/package.test.ts, first: packing rebuilds their dist/, which the backend and the tests load.
// The backend must be built first (this package's test script does it).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BACKEND_DIR,
  createTemplateDatabase,
  dropDatabase,
} from '../../backend/test/support/backend-server.mjs';
import { packWorkspacePackages } from '../../sdk/test/pack.mjs';

export const PG_ADMIN_URL = process.env.AIDE_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export default async function globalSetup() {
  if (!existsSync(join(BACKEND_DIR, 'dist', 'main.js'))) {
    throw new Error('the backend is not built: run `pnpm --filter @aide/backend build` first');
  }
  const tarballs = mkdtempSync(join(tmpdir(), 'aide-crawler-tarballs-'));
  globalThis.__AIDE_CRAWLER_TARBALLS__ = tarballs;
  const template = `aide_crawler_registry_template_${process.pid}_${randomBytes(3).toString('hex')}`;
  try {
    packWorkspacePackages(['schemas', 'sdk', 'crawler'], tarballs);
    await createTemplateDatabase(PG_ADMIN_URL, template);
  } catch (error) {
    // Jest skips the teardown when the setup fails.
    await dropDatabase(PG_ADMIN_URL, template);
    rmSync(tarballs, { recursive: true, force: true });
    throw error;
  }
  globalThis.__AIDE_CRAWLER_REGISTRY_TEMPLATE__ = template;
  process.env.AIDE_CRAWLER_TEST_REGISTRY_TEMPLATE = template;
}
