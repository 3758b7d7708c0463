import { z } from 'zod';
import { auditShape, noteShape } from '../common/audit.js';
import { longText, text } from '../common/text.js';
import { defineResource } from '../resource.js';

/**
 * The format of a PII tag (ADR 0058): lower-case letters and digits, words joined by one `_`, `-`, `.`
 * or `:` (`email`, `birth_date`, `gdpr:health`), at most 64 characters. A new classification must use
 * it (PII_TAG_INVALID otherwise); tags stored before the format existed stay readable as they are.
 */
export const PII_TAG_PATTERN = /^[a-z0-9]+(?:[_.:-][a-z0-9]+)*$/;
export const MAX_PII_TAG_LENGTH = 64;

/** Whether `tag` has the PII tag format. */
export const isPiiTag = (tag: string): boolean =>
  tag.length <= MAX_PII_TAG_LENGTH && PII_TAG_PATTERN.test(tag);

/**
 * The tag a person probably meant (`Name With Spaces!!` → `name_with_spaces`): lower case, accents
 * dropped, every other run of characters one `_`. Empty when nothing of it is usable.
 */
export function suggestPiiTag(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, MAX_PII_TAG_LENGTH)
    .replace(/_+$/, '');
}

/**
 * Tags offered before a registry uses any (a starting vocabulary, not a closed list): the kinds of
 * personal data that data-protection reviews usually name.
 */
export const SUGGESTED_PII_TAGS = [
  'address',
  'biometric',
  'birth_date',
  'credential',
  'device_id',
  'email',
  'financial',
  'health',
  'ip_address',
  'location',
  'name',
  'national_id',
  'phone',
] as const;

/** One entry of a field's append-only PII history; the field's current tags are its newest entry. */
export const FieldClassificationSchema = z
  .object({
    ...auditShape,
    field_id: z.uuid(),
    pii_tags: z.array(z.string()),
    reason: z.string().nullable(),
    created_by_email: z
      .string()
      .nullable()
      .describe('Who recorded it: the e-mail address of `created_by` (null when not known)'),
  })
  .meta({ id: 'FieldClassification' });
export type FieldClassification = z.infer<typeof FieldClassificationSchema>;

/** The tags in use (on fields' current classifications, most used first) and the suggested ones. */
export const PiiTagCatalogueSchema = z
  .object({
    in_use: z.array(z.object({ tag: z.string(), field_count: z.int() })),
    suggested: z.array(z.string()),
  })
  .meta({ id: 'PiiTagCatalogue' });
export type PiiTagCatalogue = z.infer<typeof PiiTagCatalogueSchema>;

export const CreateFieldClassificationSchema = z
  .strictObject({
    field_id: z.uuid(),
    pii_tags: z
      .array(text(100))
      .max(50)
      .describe(
        'Empty means: reviewed, no PII. Each tag: lower-case letters and digits, words joined by _ - . or : ' +
          `(e.g. email, birth_date, gdpr:health), at most ${MAX_PII_TAG_LENGTH} characters (else PII_TAG_INVALID)`,
      ),
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
  errors: ['FIELD_NOT_FOUND', 'PII_TAG_INVALID'],
});
