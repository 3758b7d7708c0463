import { z } from 'zod';
import {
  BulkCompatibilityCheckResultSchema,
  BulkCompatibilityCheckSchema,
  CompatibilityCheckSchema,
  DatasetCompatibilitySchema,
  RegistryCompatibilitySchema,
  SetCompatibilitySchema,
  SystemCompatibilitySchema,
} from '../entities/compatibility.js';
import { PublishSchemaVersionSchema } from '../entities/schema-version.js';
import { TranslateQuerySchema, TranslationSchema } from '../entities/translation.js';
import { wireInt } from '../common/text.js';
import { defineRoute, idParams, uuidParam } from './route.js';

// Compatibility levels and the check route (ADR 0048), and translation of a version into another
// flavor (issue 25).

const tag = 'Compatibility';

/** The checks a check shares with a publish: the body resolved as a publish resolves it. */
const CHECK_ERRORS = [
  'DATASET_NOT_FOUND',
  'DATA_TYPE_NOT_FOUND',
  'TYPE_INSTANCE_PARAMS_INVALID',
  'TYPE_INSTANCE_TREE_TOO_LARGE',
  'TYPE_INSTANCE_RENDER_FAILED',
  'TEMPLATE_RENDER_LIMIT',
] as const;

export const compatibilityRoutes = {
  getRegistry: defineRoute({
    method: 'GET',
    path: '/api/v1/compatibility',
    responses: { 200: RegistryCompatibilitySchema },
    errors: [],
    auth: 'user',
    keys: 'catalogue:read',
    summary: "The registry's default compatibility level",
    description: 'Applies to every dataset whose own level and whose system default are unset.',
    tag,
  }),
  setRegistry: defineRoute({
    method: 'PUT',
    path: '/api/v1/compatibility',
    body: RegistryCompatibilitySchema,
    responses: { 200: RegistryCompatibilitySchema },
    errors: [],
    auth: 'superuser',
    keys: 'none',
    idempotent: true,
    summary: "Set the registry's default compatibility level",
    tag,
  }),
  getSystem: defineRoute({
    method: 'GET',
    path: '/api/v1/systems/:id/compatibility',
    pathParams: idParams,
    responses: { 200: SystemCompatibilitySchema },
    errors: ['SYSTEM_NOT_FOUND'],
    auth: 'user',
    keys: 'catalogue:read',
    summary: "A system's default compatibility level for its datasets",
    tag,
  }),
  setSystem: defineRoute({
    method: 'PUT',
    path: '/api/v1/systems/:id/compatibility',
    pathParams: idParams,
    body: SetCompatibilitySchema,
    responses: { 200: SystemCompatibilitySchema },
    errors: ['SYSTEM_NOT_FOUND'],
    auth: 'superuser',
    keys: 'none',
    idempotent: true,
    summary: "Set (or clear, with null) a system's default compatibility level",
    tag,
  }),
  getDataset: defineRoute({
    method: 'GET',
    path: '/api/v1/datasets/:id/compatibility',
    pathParams: idParams,
    responses: { 200: DatasetCompatibilitySchema },
    errors: ['DATASET_NOT_FOUND'],
    auth: 'user',
    keys: 'catalogue:read',
    summary: "A dataset's compatibility level: its own, its system's, the registry's, and the one applied",
    tag,
  }),
  setDataset: defineRoute({
    method: 'PUT',
    path: '/api/v1/datasets/:id/compatibility',
    pathParams: idParams,
    body: SetCompatibilitySchema,
    responses: { 200: DatasetCompatibilitySchema },
    errors: ['DATASET_NOT_FOUND'],
    auth: 'superuser',
    keys: 'none',
    idempotent: true,
    summary: "Set (or clear, with null) a dataset's own compatibility level",
    description:
      'Superusers only: lowering a level is as much an override as a forced publish, and is kept in the ' +
      "dataset's audit trail.",
    tag,
  }),
  check: defineRoute({
    method: 'POST',
    path: '/api/v1/datasets/:id/schema-versions/check',
    pathParams: idParams,
    body: PublishSchemaVersionSchema,
    responses: { 200: CompatibilityCheckSchema },
    errors: [...CHECK_ERRORS],
    auth: 'user',
    keys: 'catalogue:read',
    safe: true,
    summary: 'Would this version be accepted? The compatibility check of a publish, writing nothing',
    description:
      "Takes the body of a publish and answers what the dataset's level makes of it: every violation " +
      'against every version compared (the latest, or all for a _TRANSITIVE level), the change from the ' +
      "current version, and when refused the downstream impact. As Schema Registry's " +
      '`POST /compatibility/subjects/{subject}/versions`; `aide-crawler crawl --check` calls it.',
    tag,
  }),
  bulkCheck: defineRoute({
    method: 'POST',
    path: '/api/v1/schema-versions/check',
    body: BulkCompatibilityCheckSchema,
    responses: { 200: BulkCompatibilityCheckResultSchema },
    errors: ['BATCH_TOO_LARGE', 'PAYLOAD_TOO_LARGE'],
    auth: 'user',
    keys: 'catalogue:read',
    safe: true,
    batch: true,
    summary: "Check many datasets' would-be versions against their levels, each on its own",
    tag,
  }),
};

export const translationRoutes = {
  translate: defineRoute({
    method: 'GET',
    path: '/api/v1/datasets/:id/versions/:num/translate',
    pathParams: z.object({ id: uuidParam, num: wireInt(1, 2147483647, 'must be a positive integer') }),
    query: TranslateQuerySchema,
    responses: { 200: TranslationSchema },
    errors: [
      'DATASET_NOT_FOUND',
      'DATASET_SCHEMA_NOT_FOUND',
      'SYSTEM_FLAVOR_NOT_FOUND',
      'TRANSLATION_FORMAT_UNSUPPORTED',
      'TRANSLATION_LOSSY',
    ],
    auth: 'user',
    keys: 'catalogue:read',
    summary: 'A version rendered into another flavor through the cast rules, with what it loses',
    description:
      'DDL for postgres14, mysql8, sqlite3, hive3, spark_sql (Delta) and iceberg_v2 (Spark DDL); an Avro ' +
      'schema; a JSON Schema; a Protobuf message; a Parquet schema. Every lossy cast and every column ' +
      'or constraint the target cannot hold is listed beside the output; `strict=true` fails instead.',
    tag: 'Schema versions',
  }),
};
