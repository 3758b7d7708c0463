import { rmSync } from 'node:fs';
import { dropDatabase } from '../../backend/test/support/backend-server.mjs';
import { PG_ADMIN_URL } from './global-setup.mjs';

export default async function globalTeardown() {
  const template = globalThis.__AIDE_CRAWLER_REGISTRY_TEMPLATE__;
  if (template) await dropDatabase(PG_ADMIN_URL, template);
  const tarballs = globalThis.__AIDE_CRAWLER_TARBALLS__;
  if (tarballs) rmSync(tarballs, { recursive: true, force: true });
}
