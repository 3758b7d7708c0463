import { z } from 'zod';
import { auditShape, noteShape, rowVersionShape, softDeleteShape } from '../common/audit.js';
import { jsonObject, longText, text } from '../common/text.js';
import { defineResource } from '../resource.js';
import { partial } from './dataset.js';

export const ENGINE_KINDS = ['debezium', 'ogg', 'spark', 'impala'] as const;
export const EngineKindSchema = z.enum(ENGINE_KINDS);
export type EngineKind = z.infer<typeof EngineKindSchema>;

export const ENGINE_ROLES = ['cdc', 'compute'] as const;
export type EngineRole = (typeof ENGINE_ROLES)[number];

/** A kind's role is fixed: CDC engines describe envelopes, compute engines run SQL (AIDE v2 ADR-020). */
export const ENGINE_ROLE_OF: Readonly<Record<EngineKind, EngineRole>> = {
  debezium: 'cdc',
  ogg: 'cdc',
  spark: 'compute',
  impala: 'compute',
};

/**
 * The versions each kind supports. Checked by the server (422 ENGINE_VERSION_INVALID naming the
 * allowed ones), not by the body schema, so a wrong version gets the catalogue's code.
 */
export const ENGINE_VERSIONS: Readonly<Record<EngineKind, readonly string[]>> = {
  debezium: ['2.x', '1.x'],
  ogg: ['21c', '19c'],
  spark: ['3.x', '4.x'],
  impala: ['4.x'],
};

/** A CDC envelope template must say where the after-image sits in a change event. */
const envelopeTemplate = jsonObject.refine((v) => Object.hasOwn(v, 'after_path'), {
  message: "must contain the key 'after_path'",
});

/** Kind-specific attributes, as on create (AIDE v2 §1.2 engines). */
export const ENGINE_KIND_ATTRIBUTES = {
  debezium: { envelope_template: envelopeTemplate, topic_routing: jsonObject.nullable().optional() },
  ogg: { envelope_template: envelopeTemplate, topic_routing: jsonObject.nullable().optional() },
  spark: { runtime_opts: jsonObject.nullable().optional() },
  impala: { runtime_opts: jsonObject.nullable().optional() },
} as const;

const version = text(64);

function createOf<K extends EngineKind>(kind: K) {
  return z.strictObject({
    kind: z.literal(kind),
    code: text(),
    name: longText(1000).min(1),
    // Accepted for compatibility with the original's bodies; it can only be the kind's role.
    role: z.literal(ENGINE_ROLE_OF[kind]).optional(),
    version,
    ...ENGINE_KIND_ATTRIBUTES[kind],
    ...noteShape,
  });
}

function updateOf<K extends EngineKind>(kind: K) {
  return z.strictObject({
    kind: z.literal(kind),
    name: longText(1000).min(1).optional(),
    version: version.optional(),
    ...partial(ENGINE_KIND_ATTRIBUTES[kind]),
    ...noteShape,
    ...rowVersionShape,
  });
}

export const CreateEngineSchema = z
  .discriminatedUnion('kind', [createOf('debezium'), createOf('ogg'), createOf('spark'), createOf('impala')])
  .meta({ id: 'CreateEngine' });
export type CreateEngine = z.input<typeof CreateEngineSchema>;

/** `kind` is required and must equal the stored kind (ENGINE_KIND_IMMUTABLE); `code` cannot change. */
export const UpdateEngineSchema = z
  .discriminatedUnion('kind', [updateOf('debezium'), updateOf('ogg'), updateOf('spark'), updateOf('impala')])
  .meta({ id: 'UpdateEngine' });
export type UpdateEngine = z.input<typeof UpdateEngineSchema>;

const commonRead = {
  ...auditShape,
  ...softDeleteShape,
  code: z.string(),
  name: z.string(),
  version: z.string(),
};
const obj = z.record(z.string(), z.unknown());
const cdcRead = { role: z.literal('cdc'), envelope_template: obj, topic_routing: obj.nullable() };
const computeRead = { role: z.literal('compute'), runtime_opts: obj.nullable() };

export const EngineSchema = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('debezium'), ...commonRead, ...cdcRead }),
    z.object({ kind: z.literal('ogg'), ...commonRead, ...cdcRead }),
    z.object({ kind: z.literal('spark'), ...commonRead, ...computeRead }),
    z.object({ kind: z.literal('impala'), ...commonRead, ...computeRead }),
  ])
  .meta({ id: 'Engine' });
export type Engine = z.infer<typeof EngineSchema>;

export const engineResource = defineResource({
  path: 'engines',
  tag: 'Engines',
  name: 'Engine',
  read: EngineSchema,
  create: CreateEngineSchema,
  update: UpdateEngineSchema,
  list: {
    filters: {
      code: { type: 'string', ops: ['eq', 'like', 'in'] },
      name: { type: 'string', ops: ['like'] },
      kind: { type: 'string', ops: ['eq', 'in'], values: ENGINE_KINDS },
      role: { type: 'string', ops: ['eq'], values: ENGINE_ROLES },
      version: { type: 'string', ops: ['eq'] },
      created_at: { type: 'datetime', ops: ['gte', 'lte'] },
      updated_at: { type: 'datetime', ops: ['gte', 'lte'] },
    },
    sortable: ['code', 'name', 'kind', 'role', 'created_at', 'updated_at'],
    defaultSort: 'created_at',
    softDelete: true,
  },
  notFound: 'ENGINE_NOT_FOUND',
  writeRole: 'superuser',
  keys: 'reference',
  softDelete: true,
  batch: false,
  errors: ['ENGINE_CODE_ALREADY_EXISTS', 'ENGINE_VERSION_INVALID', 'ENGINE_KIND_IMMUTABLE'],
  deleteErrors: ['ENGINE_IN_USE'],
  restoreErrors: ['ENGINE_CODE_ALREADY_EXISTS'],
});
