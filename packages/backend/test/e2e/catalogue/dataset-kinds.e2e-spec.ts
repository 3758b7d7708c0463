// A dataset's kind fits its system's kind (DATASET_KIND_SYSTEM_KINDS, docs/dataset-kinds.md): refused
// with 422 DATASET_SYSTEM_KIND_MISMATCH when a dataset is created, and when a system, a flavor or a
// system kind would change under datasets it no longer fits.
import { DATASET_KIND_SYSTEM_KINDS } from '@aide/schemas';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  API,
  createDataset,
  createPgSystem,
  createSystemFor,
  DATASET_KINDS,
  datasetBody,
  flavorByCode,
  flavorFor,
  type Row,
  seedReference,
} from '../../helpers/catalogue.js';
import { createFlavor, createKind, createSystem, ok } from '../../helpers/factories.js';
import { createTestContext, expectEnvelope, type TestContext } from '../../helpers/test-app.js';

let ctx: TestContext;
let pgSystem: Row;
beforeAll(async () => {
  ctx = await createTestContext();
  await seedReference(ctx);
  pgSystem = await createPgSystem(ctx);
});
afterAll(async () => {
  await ctx.close();
});

const datasets = `${API}/datasets`;

async function countOn(systemId: string): Promise<number> {
  return ok(await ctx.request('GET', `${datasets}?system_id=${systemId}`, { token: ctx.userToken })).total;
}

describe('creating a dataset', () => {
  it('refuses a kafka dataset on a postgres14 (rdbms) system with 422, naming the kinds', async () => {
    const refused = expectEnvelope(
      await ctx.request('POST', datasets, { token: ctx.userToken, body: datasetBody('kafka', pgSystem.id) }),
      422,
      'DATASET_SYSTEM_KIND_MISMATCH',
    );
    expect(refused.details).toEqual({
      dataset_kind: 'kafka',
      system_kind: 'rdbms',
      allowed_system_kinds: ['kafka'],
    });
    expect(await countOn(pgSystem.id)).toBe(0);
  });

  it('takes each kind on a system of a fitting kind and refuses it on every other', async () => {
    const systems = new Map<string, Row>();
    for (const kind of DATASET_KINDS) systems.set(kind, await createSystemFor(ctx, kind));
    for (const kind of DATASET_KINDS) {
      for (const [systemKind, system] of systems) {
        const response = await ctx.request('POST', datasets, {
          token: ctx.userToken,
          body: datasetBody(kind, system.id),
        });
        if ((DATASET_KIND_SYSTEM_KINDS[kind] as readonly string[]).includes(systemKind)) ok(response, 201);
        else expectEnvelope(response, 422, 'DATASET_SYSTEM_KIND_MISMATCH');
      }
    }
  });

  it('refuses every dataset on a system kind the table does not name', async () => {
    const graph = await createSystem(ctx, (await createFlavor(ctx, (await createKind(ctx)).id)).id);
    for (const kind of DATASET_KINDS) {
      expectEnvelope(
        await ctx.request('POST', datasets, { token: ctx.userToken, body: datasetBody(kind, graph.id) }),
        422,
        'DATASET_SYSTEM_KIND_MISMATCH',
      );
    }
  });

  it('cannot move a dataset to another system or kind on update', async () => {
    const dataset = await createDataset(ctx, pgSystem.id);
    const kafka = await createSystemFor(ctx, 'kafka');
    expectEnvelope(
      await ctx.request('PATCH', `${datasets}/${dataset.id}`, {
        token: ctx.userToken,
        body: { kind: 'rdbms', system_id: kafka.id, row_version: 1 },
      }),
      422,
      'VALIDATION_ERROR',
    );
    expectEnvelope(
      await ctx.request('PATCH', `${datasets}/${dataset.id}`, {
        token: ctx.userToken,
        body: { kind: 'kafka', topic: 't', row_version: 1 },
      }),
      400,
      'DATASET_KIND_MISMATCH',
    );
  });
});

describe('changing the kind under datasets', () => {
  it("refuses a system's flavor of another kind while it holds datasets; an empty system may change", async () => {
    const lake = (await flavorByCode(ctx, 'iceberg_v2')).id;
    const system = await createPgSystem(ctx);
    await createDataset(ctx, system.id);
    const refused = expectEnvelope(
      await ctx.request('PATCH', `${API}/systems/${system.id}`, {
        token: ctx.userToken,
        body: { flavor_id: lake, row_version: system.row_version },
      }),
      422,
      'DATASET_SYSTEM_KIND_MISMATCH',
    );
    expect(refused.details).toMatchObject({ dataset_kind: 'rdbms', system_kind: 'hive' });

    const empty = await createPgSystem(ctx);
    expect(
      ok(
        await ctx.request('PATCH', `${API}/systems/${empty.id}`, {
          token: ctx.userToken,
          body: { flavor_id: lake, row_version: empty.row_version },
        }),
      ).flavor_id,
    ).toBe(lake);
  });

  it('counts deleted datasets too: they come back on restore', async () => {
    const system = await createPgSystem(ctx);
    const dataset = await createDataset(ctx, system.id);
    ok(await ctx.request('DELETE', `${datasets}/${dataset.id}`, { token: ctx.adminToken }));
    expectEnvelope(
      await ctx.request('PATCH', `${API}/systems/${system.id}`, {
        token: ctx.userToken,
        body: { flavor_id: (await flavorByCode(ctx, 'iceberg_v2')).id, row_version: system.row_version },
      }),
      422,
      'DATASET_SYSTEM_KIND_MISMATCH',
    );
  });

  it("refuses a flavor's move to another kind, and a kind's new code, when datasets no longer fit", async () => {
    const kafkaFlavor = await flavorFor(ctx, 'kafka');
    await createDataset(ctx, (await createSystem(ctx, kafkaFlavor.id)).id, 'kafka');
    const rdbms = ok(await ctx.request('GET', `${API}/system-kinds?code=rdbms`, { token: ctx.userToken }))
      .items[0] as Row;
    expectEnvelope(
      await ctx.request('PATCH', `${API}/system-flavors/${kafkaFlavor.id}`, {
        token: ctx.adminToken,
        body: { kind_id: rdbms.id, row_version: kafkaFlavor.row_version },
      }),
      422,
      'DATASET_SYSTEM_KIND_MISMATCH',
    );
    const kafkaKind = ok(
      await ctx.request('GET', `${API}/system-kinds/${kafkaFlavor.kind_id}`, { token: ctx.userToken }),
    );
    expectEnvelope(
      await ctx.request('PATCH', `${API}/system-kinds/${kafkaKind.id}`, {
        token: ctx.adminToken,
        body: { code: 'message_bus', row_version: kafkaKind.row_version },
      }),
      422,
      'DATASET_SYSTEM_KIND_MISMATCH',
    );
    // A rename that keeps the code is fine.
    const renamed = ok(
      await ctx.request('PATCH', `${API}/system-kinds/${kafkaKind.id}`, {
        token: ctx.adminToken,
        body: { name: 'Kafka clusters', row_version: kafkaKind.row_version },
      }),
    );
    expect(renamed).toMatchObject({ code: 'kafka', name: 'Kafka clusters' });
  });
});
