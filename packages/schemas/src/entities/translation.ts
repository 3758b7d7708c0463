import { z } from 'zod';
import { CastFidelitySchema } from './cast-rule.js';

// Translation (issue 25 §2): a stored version rendered into another flavor through the cast rules —
// DDL, an Avro schema, a JSON Schema, a Protobuf message or a Parquet schema — with everything the
// target cannot hold reported beside the output, never dropped silently.

export const TRANSLATION_FORMATS = ['ddl', 'avro', 'json_schema', 'protobuf', 'parquet'] as const;
export type TranslationFormat = (typeof TRANSLATION_FORMATS)[number];

export const TranslateQuerySchema = z
  .strictObject({
    flavor: z.string().min(1).max(100).describe('The target flavor code: postgres14, mysql8, avro…'),
    format: z
      .enum(TRANSLATION_FORMATS)
      .optional()
      .describe("The output; defaults to the flavor's own (DDL for SQL flavors, parquet for files)"),
    strict: z
      .enum(['true', 'false'])
      .transform((v) => v === 'true')
      .optional()
      .describe('true: fail with TRANSLATION_LOSSY instead of answering a lossy translation'),
  })
  .meta({ id: 'TranslateQuery' });
export type TranslateQuery = z.input<typeof TranslateQuerySchema>;

/** One column (or nested field) of the translation: its type on both sides and what the cast keeps. */
export const TranslatedColumnSchema = z
  .object({
    path: z.string().describe('The column, or a nested field as `column.field` / `column[]`'),
    source_type: z.string().nullable().describe("The version's rendered type (null: native only)"),
    target_type: z.string().nullable().describe('The type in the output (null: not mapped)'),
    fidelity: CastFidelitySchema.nullable().describe('exact, widening or lossy; null when not mapped'),
    loss: z.array(z.string()).describe('What a lossy cast loses, from the cast rules'),
  })
  .meta({ id: 'TranslatedColumn' });
export type TranslatedColumn = z.infer<typeof TranslatedColumnSchema>;

/** Something of the version the output cannot carry: a column without a mapping, a key, a default. */
export const TranslationOmissionSchema = z
  .object({
    kind: z.enum([
      'column',
      'primary_key',
      'unique',
      'foreign_key',
      'index',
      'check',
      'default',
      'comment',
      'nullability',
      'partitioning',
    ]),
    path: z.string().nullable().describe('The column or constraint concerned'),
    reason: z.string(),
  })
  .meta({ id: 'TranslationOmission' });
export type TranslationOmission = z.infer<typeof TranslationOmissionSchema>;

export const TranslationSchema = z
  .object({
    dataset_id: z.uuid(),
    version_num: z.int(),
    source_flavor: z.string(),
    target_flavor: z.string(),
    format: z.enum(TRANSLATION_FORMATS),
    media_type: z.string().describe('application/sql, application/json, text/x-protobuf, text/plain'),
    content: z.string().describe('The output, valid for the target'),
    columns: z.array(TranslatedColumnSchema).describe('Every column in order, nested fields after theirs'),
    lossy: z.boolean().describe('true when any cast is lossy or anything is omitted'),
    omissions: z.array(TranslationOmissionSchema).describe('What the output leaves out, each with why'),
  })
  .meta({ id: 'Translation' });
export type Translation = z.infer<typeof TranslationSchema>;
