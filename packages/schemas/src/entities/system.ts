import { z } from 'zod';
import { auditShape, noteShape, rowVersionShape, softDeleteShape } from '../common/audit.js';
import { jsonObject, longText, text } from '../common/text.js';
import { defineResource } from '../resource.js';
import { inListSchema, MAX_IN_LIST } from '../common/list-query.js';

/** A concrete external system: a database server, a Kafka cluster, an object store, ... */
export const SystemSchema = z
  .object({
    ...auditShape,
    ...softDeleteShape,
    code: z.string(),
    name: z.string(),
    is_active: z.boolean(),
    tags: z.array(z.string()).nullable(),
    extra: z.record(z.string(), z.unknown()).nullable(),
    flavor_id: z.uuid(),
    credential_ref_id: z.uuid().nullable(),
  })
  .meta({ id: 'System' });
export type System = z.infer<typeof SystemSchema>;

const tags = z.array(text()).max(100);

export const CreateSystemSchema = z
  .strictObject({
    code: text(),
    name: longText(1000).min(1),
    is_active: z.boolean().optional(),
    tags: tags.nullable().optional(),
    extra: jsonObject.nullable().optional(),
    flavor_id: z.uuid(),
    credential_ref_id: z.uuid().nullable().optional(),
    ...noteShape,
  })
  .meta({ id: 'CreateSystem' });
export type CreateSystem = z.input<typeof CreateSystemSchema>;

export const UpdateSystemSchema = z
  .strictObject({
    code: text().optional(),
    name: longText(1000).min(1).optional(),
    is_active: z.boolean().optional(),
    tags: tags.nullable().optional(),
    extra: jsonObject.nullable().optional(),
    flavor_id: z.uuid().optional(),
    credential_ref_id: z.uuid().nullable().optional(),
    ...noteShape,
    ...rowVersionShape,
  })
  .meta({ id: 'UpdateSystem' });
export type UpdateSystem = z.input<typeof UpdateSystemSchema>;

export const systemResource = defineResource({
  path: 'systems',
  tag: 'Systems',
  name: 'System',
  read: SystemSchema,
  create: CreateSystemSchema,
  update: UpdateSystemSchema,
  list: {
    filters: {
      code: { type: 'string', ops: ['eq', 'like', 'in'] },
      name: { type: 'string', ops: ['eq', 'like'] },
      is_active: { type: 'boolean', ops: ['eq'] },
      flavor_id: { type: 'uuid', ops: ['eq', 'in'] },
      credential_ref_id: { type: 'uuid', ops: ['eq'] },
      created_at: { type: 'datetime', ops: ['gte', 'lte'] },
      updated_at: { type: 'datetime', ops: ['gte', 'lte'] },
    },
    sortable: ['code', 'name', 'is_active', 'created_at', 'updated_at'],
    defaultSort: 'code',
    softDelete: true,
  },
  notFound: 'SYSTEM_NOT_FOUND',
  writeRole: 'user',
  keys: 'catalogue',
  softDelete: true,
  batch: true,
  errors: [
    'SYSTEM_ALREADY_EXISTS',
    'SYSTEM_FLAVOR_NOT_FOUND',
    'CREDENTIAL_REF_NOT_FOUND',
    'DATASET_SYSTEM_KIND_MISMATCH',
    'TYPE_INSTANCE_FLAVOR_MISMATCH',
  ],
});

/** The most systems one `GET /systems/dataset-counts` answers for (a page of the systems list). */
export const MAX_DATASET_COUNT_SYSTEMS = MAX_IN_LIST;

/** `GET /systems/dataset-counts?id__in=` — the systems to count the active datasets of. */
export const SystemDatasetCountsQuerySchema = z.strictObject({
  id__in: inListSchema(z.uuid(), MAX_DATASET_COUNT_SYSTEMS).describe(
    `Comma-separated system ids, 1 to ${MAX_DATASET_COUNT_SYSTEMS}`,
  ),
});
export type SystemDatasetCountsQuery = z.input<typeof SystemDatasetCountsQuerySchema>;

export const SystemDatasetCountSchema = z
  .object({
    system_id: z.uuid(),
    dataset_count: z.int().min(0).describe('Active (not soft-deleted) datasets of the system'),
  })
  .meta({ id: 'SystemDatasetCount' });
export type SystemDatasetCount = z.infer<typeof SystemDatasetCountSchema>;

export const SystemDatasetCountsSchema = z
  .object({
    items: z
      .array(SystemDatasetCountSchema)
      .describe('One per active system asked for, in the order asked; unknown or deleted systems are absent'),
  })
  .meta({ id: 'SystemDatasetCounts' });
export type SystemDatasetCounts = z.infer<typeof SystemDatasetCountsSchema>;
