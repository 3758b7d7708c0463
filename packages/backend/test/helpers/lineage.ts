// Factories of the lineage e2e tests (engines, dataset links, field links) under test/e2e/lineage.
import { ok, unique } from './factories.js';
import { API, type Row } from './catalogue.js';
import type { TestContext } from './test-app.js';

/** A valid create body of each engine kind. */
export function engineBody(kind: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const common = { kind, code: unique(`eng_${kind}`), name: `Engine ${kind}` };
  switch (kind) {
    case 'debezium':
      return { ...common, version: '2.x', envelope_template: { after_path: 'after' }, ...overrides };
    case 'ogg':
      return { ...common, version: '21c', envelope_template: { after_path: 'after' }, ...overrides };
    case 'spark':
      return { ...common, version: '3.x', runtime_opts: { executors: 4 }, ...overrides };
    default:
      return { ...common, version: '4.x', ...overrides };
  }
}

export async function createEngine(
  ctx: TestContext,
  kind = 'spark',
  overrides: Record<string, unknown> = {},
): Promise<Row> {
  const r = await ctx.request('POST', `${API}/engines`, {
    token: ctx.adminToken,
    body: engineBody(kind, overrides),
  });
  return ok(r, 201);
}
