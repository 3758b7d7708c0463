import { z } from 'zod';
import { auditShape, noteShape, rowVersionShape, softDeleteShape } from '../common/audit.js';
import { longText, text } from '../common/text.js';
import { defineResource } from '../resource.js';

/** A top-level taxonomy of systems, e.g. `rdbms`, `kafka`, `hive`. */
export const SystemKindSchema = z
  .object({ ...auditShape, ...softDeleteShape, code: z.string(), name: z.string() })
  .meta({ id: 'SystemKind' });
export type SystemKind = z.infer<typeof SystemKindSchema>;

export const CreateSystemKindSchema = z
  .strictObject({ code: text(), name: longText(1000).min(1), ...noteShape })
  .meta({ id: 'CreateSystemKind' });
export type CreateSystemKind = z.input<typeof CreateSystemKindSchema>;

export const UpdateSystemKindSchema = z
  .strictObject({
    code: text().optional(),
    name: longText(1000).min(1).optional(),
    ...noteShape,
    ...rowVersionShape,
  })
  .meta({ id: 'UpdateSystemKind' });
export type UpdateSystemKind = z.input<typeof UpdateSystemKindSchema>;

export const systemKindResource = defineResource({
  path: 'system-kinds',
  tag: 'System kinds',
  name: 'SystemKind',
  read: SystemKindSchema,
  create: CreateSystemKindSchema,
  update: UpdateSystemKindSchema,
  list: {
    filters: {
      code: { type: 'string', ops: ['eq', 'like', 'in'] },
      name: { type: 'string', ops: ['eq', 'like'] },
      created_at: { type: 'datetime', ops: ['gte', 'lte'] },
    },
    sortable: ['code', 'name', 'created_at', 'updated_at'],
    defaultSort: 'code',
    softDelete: true,
  },
  notFound: 'SYSTEM_KIND_NOT_FOUND',
  writeRole: 'superuser',
  keys: 'reference',
  softDelete: true,
  batch: false,
  errors: ['SYSTEM_KIND_ALREADY_EXISTS', 'DATASET_SYSTEM_KIND_MISMATCH'],
});
