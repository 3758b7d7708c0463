import { z } from 'zod';
import { auditShape, noteShape } from '../common/audit.js';
import { longText, text } from '../common/text.js';
import { defineResource } from '../resource.js';

/** One entry of a field's append-only PII history; the field's current tags are its newest entry. */
export const FieldClassificationSchema = z
  .object({
    ...auditShape,
    field_id: z.uuid(),
    pii_tags: z.array(z.string()),
    reason: z.string().nullable(),
  })
  .meta({ id: 'FieldClassification' });
export type FieldClassification = z.infer<typeof FieldClassificationSchema>;

export const CreateFieldClassificationSchema = z
  .strictObject({
    field_id: z.uuid(),
    pii_tags: z.array(text(100)).max(50).describe('Empty means: reviewed, no PII'),
    reason: longText(4000).nullable().optional(),
    ...noteShape,
  })
  .meta({ id: 'CreateFieldClassification' });
export type CreateFieldClassification = z.input<typeof CreateFieldClassificationSchema>;

export const fieldClassificationResource = defineResource({
  path: 'field-classifications',
  tag: 'Field classifications',
  name: 'FieldClassification',
  read: FieldClassificationSchema,
  create: CreateFieldClassificationSchema,
  // Append-only: there is no update route; the def needs a schema, the router omits the route.
  update: z.strictObject({}),
  list: {
    filters: {
      field_id: { type: 'uuid', ops: ['eq', 'in'] },
      created_at: { type: 'datetime', ops: ['gte', 'lte'] },
    },
    sortable: ['created_at', 'updated_at'],
    defaultSort: '-created_at',
    softDelete: false,
  },
  notFound: 'FIELD_CLASSIFICATION_NOT_FOUND',
  writeRole: 'user',
  keys: 'catalogue',
  softDelete: false,
  batch: false,
  without: ['update', 'delete'],
  errors: ['FIELD_NOT_FOUND'],
});
