// Type-checked against the built declarations (dist/*.d.ts) by test/consumer.test.ts, as a consumer's
// code would be: the package imported by name, strict mode.
import {
  AideClient,
  ConflictError,
  type AideClientOptions,
  type ListParams,
  type Page,
  type RequestOptions,
} from '@aide/sdk';
import type { CreateSystem, System } from '@aide/schemas';

export async function consumer(options: AideClientOptions, body: CreateSystem): Promise<string[]> {
  const client = new AideClient(options);
  const params: ListParams = { size: 10, sort: ['-created_at'], flavor_id__in: ['a', 'b'] };
  const request: RequestOptions = { timeoutMs: 1000, idempotencyKey: 'k' };
  const page: Page<System> = await client.systems.list(params, request);
  const created: System[] = await client.systems.createMany([body], {
    onChunk: (items) => void items.length,
  });
  const restored: System = await client.systems.restore(created[0].id);
  try {
    await client.systems.update(restored.id, { name: 'x', row_version: restored.row_version });
  } catch (error) {
    if (error instanceof ConflictError && error.errorCode === 'VERSION_CONFLICT') return [];
  }
  const codes: string[] = page.items.map((s) => s.code);
  for await (const system of client.systems.list()) codes.push(system.code);
  // @ts-expect-error system kinds have no batch route
  await client.systemKinds.createMany([]);
  // @ts-expect-error the create body is typed
  await client.systems.create({ code: 'x' });
  await client.close();
  return codes;
}
