/**
 * The error-code catalogue: every code the API can answer with, its HTTP status and default detail.
 * The original's catalogue (AIDE v2 §3.3) with one deliberate change: every `*_ALREADY_EXISTS` is 409.
 * Clients branch on the code; the detail is for people.
 */
export const ERROR_CATALOGUE = {
  // Transport, validation and auth
  VALIDATION_ERROR: { status: 422, detail: 'The request is invalid.' },
  UNAUTHORIZED: { status: 401, detail: 'Could not validate credentials.' },
  FORBIDDEN: { status: 403, detail: 'The user does not have enough privileges.' },
  NOT_FOUND: { status: 404, detail: 'The requested resource was not found.' },
  METHOD_NOT_ALLOWED: { status: 405, detail: 'The method is not allowed for this resource.' },
  PAYLOAD_TOO_LARGE: { status: 413, detail: 'The request body is too large.' },
  OPENLINEAGE_EVENT_TOO_LARGE: {
    status: 413,
    detail:
      'The OpenLineage event asks for more work than one event may do (dataset pairs or column-lineage ' +
      'edges): `details` names the limit. Split the event, or raise the limit (docs/operations.md).',
  },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, detail: 'The request content type is not supported.' },
  UNSUPPORTED_CONTENT_ENCODING: {
    status: 415,
    detail:
      'The request Content-Encoding is not supported: send the body as is (identity) or gzip-compressed.',
  },
  TOO_MANY_REQUESTS: { status: 429, detail: 'Too many requests. Retry later.' },
  PRECONDITION_REQUIRED: {
    status: 428,
    detail: 'An update needs row_version in the body or an If-Match header.',
  },
  INTERNAL_SERVER_ERROR: { status: 500, detail: 'An unexpected internal error occurred.' },
  SERVICE_UNAVAILABLE: { status: 503, detail: 'The service is temporarily unavailable.' },
  DATABASE_UNAVAILABLE: {
    status: 503,
    detail: 'The database is temporarily unreachable. Retry after the delay in Retry-After.',
  },
  SEARCH_BUSY: {
    status: 503,
    detail: 'Too many searches are running or waiting. Retry after the delay in Retry-After.',
  },
  SEARCH_TIMEOUT: {
    status: 503,
    detail: 'The search took longer than the server allows. Retry after the delay in Retry-After.',
  },
  BATCH_TOO_LARGE: { status: 422, detail: 'The batch has too many items.' },
  IDEMPOTENCY_KEY_REUSED: { status: 422, detail: 'This idempotency key was used with a different request.' },
  IDEMPOTENCY_KEY_IN_PROGRESS: {
    status: 409,
    detail: 'A request with this idempotency key is still in progress.',
  },

  // Users and tokens
  USER_NOT_FOUND: { status: 404, detail: 'The requested user was not found.' },
  USER_ALREADY_EXISTS: { status: 409, detail: 'A user with this email already exists.' },
  INVALID_CREDENTIALS: { status: 401, detail: 'Incorrect email or password.' },
  INVALID_CURRENT_PASSWORD: { status: 422, detail: 'The current password is incorrect.' },
  LAST_SUPERUSER: {
    status: 409,
    detail: 'The last active superuser cannot be demoted or deactivated: promote another user first.',
  },
  REFRESH_TOKEN_INVALID: { status: 401, detail: 'Invalid refresh token.' },
  REFRESH_TOKEN_EXPIRED: { status: 401, detail: 'Refresh token has expired.' },
  REFRESH_TOKEN_REVOKED: { status: 401, detail: 'Refresh token has been revoked.' },

  // Generic entity rules
  ENTITY_NOT_DELETED: { status: 400, detail: 'The entity is not deleted and cannot be restored.' },
  HAS_DEPENDENT_ENTITIES: {
    status: 409,
    detail: 'Cannot delete: the entity has dependent records. Remove them first.',
  },
  VERSION_CONFLICT: {
    status: 409,
    detail: 'The entity has been modified by another user. Please reload and try again.',
  },

  // Reference catalogue
  SYSTEM_KIND_NOT_FOUND: { status: 404, detail: 'The requested system kind was not found.' },
  SYSTEM_KIND_ALREADY_EXISTS: { status: 409, detail: 'A system kind with this code already exists.' },
  SYSTEM_FLAVOR_NOT_FOUND: { status: 404, detail: 'The requested system flavor was not found.' },
  SYSTEM_FLAVOR_ALREADY_EXISTS: { status: 409, detail: 'A system flavor with this code already exists.' },
  DATA_TYPE_NOT_FOUND: { status: 404, detail: 'The requested data type was not found.' },
  DATA_TYPE_ALREADY_EXISTS: {
    status: 409,
    detail: 'A data type with this code already exists for the given system flavor.',
  },
  DATA_TYPE_PARAMS_SCHEMA_INVALID: { status: 422, detail: 'The params_schema is not a valid JSON Schema.' },
  DATA_TYPE_TEMPLATE_INVALID: { status: 422, detail: 'The render_template is invalid or not allowed.' },
  CREDENTIAL_REF_NOT_FOUND: { status: 404, detail: 'The requested credential reference was not found.' },
  CREDENTIAL_REF_ALREADY_EXISTS: {
    status: 409,
    detail: 'A credential reference with this provider and path already exists.',
  },
  SYSTEM_NOT_FOUND: { status: 404, detail: 'The requested system was not found.' },
  SYSTEM_ALREADY_EXISTS: { status: 409, detail: 'A system with this code already exists.' },
  CAST_RULE_NOT_FOUND: { status: 404, detail: 'The requested cast rule was not found.' },
  CAST_RULE_ALREADY_EXISTS: {
    status: 409,
    detail: 'A cast rule with this source and target data type already exists.',
  },
  CAST_RULE_NOT_RESOLVABLE: { status: 422, detail: 'No cast rule leads to the target flavor.' },
  CAST_RULE_AMBIGUOUS: { status: 422, detail: 'Several cast rules lead to the target flavor.' },

  // Datasets, fields, schemas
  DATASET_NOT_FOUND: { status: 404, detail: 'The requested dataset was not found.' },
  UNKNOWN_DATASET_NOT_FOUND: {
    status: 404,
    detail: 'No dataset seen by the OpenLineage intake has this id (GET /api/v1/lineage/unknown-datasets).',
  },
  UNKNOWN_DATASET_ALREADY_REGISTERED: {
    status: 409,
    detail:
      'This dataset seen by the OpenLineage intake is registered already (`details.dataset_id`); replay its ' +
      'events with POST /api/v1/lineage/openlineage/replay.',
  },
  UNKNOWN_DATASET_SYSTEM_UNRESOLVED: {
    status: 422,
    detail:
      "The dataset's namespace resolves to no registered system, or to several (`details.candidates`): name " +
      'the system with `system_id`.',
  },
  DATASET_ALREADY_EXISTS: {
    status: 409,
    detail: 'A dataset with this system and object name already exists.',
  },
  INVALID_DATASET_KIND: { status: 400, detail: 'The provided dataset kind is invalid.' },
  DATASET_KIND_MISMATCH: { status: 400, detail: 'Changing the kind of a dataset is not allowed.' },
  DATASET_SYSTEM_KIND_MISMATCH: {
    status: 422,
    detail: "The dataset's kind does not fit its system's kind (see DATASET_KIND_SYSTEM_KINDS).",
  },
  DATASET_HAS_ACTIVE_LINKS: { status: 409, detail: 'Dataset has active lineage links; unlink first.' },
  DATASET_LINK_NOT_FOUND: { status: 404, detail: 'The requested dataset link was not found.' },
  DATASET_LINK_ALREADY_EXISTS: {
    status: 409,
    detail: 'An active dataset link between this source and target already exists.',
  },
  DATASET_LINK_SELF_REFERENCE: { status: 400, detail: 'A dataset cannot link to itself.' },
  DATASET_LINK_LAYER_ORDER: { status: 400, detail: 'Target dataset layer must come after source layer.' },
  DATASET_LINK_LAYER_MISSING: {
    status: 400,
    detail: 'Both source and target datasets must have a layer set.',
  },
  FIELD_NOT_FOUND: { status: 404, detail: 'The requested field was not found.' },
  FIELD_ALREADY_EXISTS: {
    status: 409,
    detail: 'A field with this name already exists for the given dataset.',
  },
  FIELD_LINK_NOT_FOUND: { status: 404, detail: 'The requested field link was not found.' },
  FIELD_LINK_ALREADY_EXISTS: {
    status: 409,
    detail: 'A field link with this source and target already exists in this dataset link.',
  },
  FIELD_LINK_SOURCE_DATASET_MISMATCH: {
    status: 400,
    detail: 'Source field does not belong to the source dataset.',
  },
  FIELD_LINK_TARGET_DATASET_MISMATCH: {
    status: 400,
    detail: 'Target field does not belong to the target dataset.',
  },
  // No longer answered by a write (several sources per target, ADR 0052): kept for OpenLineage answers
  // stored before, which a replayed event gets back.
  FIELD_LINK_TARGET_OCCUPIED: {
    status: 409,
    detail: 'Target field already has a source mapping in this dataset link.',
  },
  FIELD_NON_TECH_REQUIRES_SOURCE: {
    status: 409,
    detail: 'Non-technical field must have at least one inbound field link.',
  },
  SCHEMA_DATASET_MISMATCH: { status: 422, detail: 'The schema does not belong to the specified dataset.' },
  FIELD_ORIGIN_CONFLICT: {
    status: 409,
    detail: 'Field origin transition is blocked by current FieldLink state.',
  },
  FIELD_BINDING_MISSING: {
    status: 422,
    detail: "Field has no FieldBinding in the DatasetLink's pinned schema.",
  },
  DATASET_SCHEMA_IN_USE: {
    status: 409,
    detail: 'Cannot delete: this dataset schema is pinned by one or more active DatasetLinks.',
  },
  DATASET_SCHEMA_NOT_FOUND: { status: 404, detail: 'The requested dataset schema was not found.' },
  DATASET_SCHEMA_ALREADY_EXISTS: {
    status: 409,
    detail: 'A schema with this version already exists for the given dataset.',
  },
  DATASET_SCHEMA_IMMUTABLE: { status: 409, detail: 'A schema version with bindings cannot be changed.' },
  DATASET_SCHEMA_VERSION_NOT_NEXT: {
    status: 422,
    detail: "A client-supplied version_num must be the dataset's next version number (numbering is gapless).",
  },
  DATASET_SCHEMA_BREAKING_CHANGE: {
    status: 409,
    detail:
      "The version is a breaking change from the dataset's current version (the registry's classification), " +
      'and the publish asked to refuse one.',
  },
  DATASET_SCHEMA_INCOMPATIBLE: {
    status: 409,
    detail:
      "The version breaks the dataset's compatibility level: `details` lists every violation (the earlier " +
      'version, the direction and the rule) and the downstream impact. A superuser may publish it with ' +
      '`force_reason`.',
  },
  TRANSLATION_LOSSY: {
    status: 422,
    detail:
      'The translation loses information (lossy casts or omitted columns, listed in `details`) and ' +
      'strict mode was asked.',
  },
  TRANSLATION_FORMAT_UNSUPPORTED: {
    status: 422,
    detail: 'The target flavor has no such output format: `details.formats` lists the ones it has.',
  },
  DATASET_SCHEMA_NOT_LATEST: {
    status: 409,
    detail: "Only a dataset's latest version can be deleted: deleting another would leave a gap.",
  },
  FIELD_BINDING_NOT_FOUND: { status: 404, detail: 'The requested field binding was not found.' },
  FIELD_BINDING_FIELD_ID_ALREADY_EXISTS: {
    status: 409,
    detail: 'A binding for this field already exists in the given dataset schema.',
  },
  FIELD_BINDING_POSITION_ALREADY_EXISTS: {
    status: 409,
    detail: 'A binding for this position already exists in the given dataset schema.',
  },
  TYPE_INSTANCE_NOT_FOUND: { status: 404, detail: 'The requested type instance was not found.' },
  TYPE_INSTANCE_SLOT_ALREADY_EXISTS: {
    status: 409,
    detail: 'A type instance with this slot already exists under the given parent.',
  },
  TYPE_INSTANCE_SLOT_REQUIRED: { status: 400, detail: 'Slot is required when parent_id is set.' },
  TYPE_INSTANCE_SLOT_FORBIDDEN: {
    status: 400,
    detail: 'Slot must be null for root type instances (parent_id is null).',
  },
  TYPE_INSTANCE_PARENT_NOT_FOUND: {
    status: 404,
    detail: 'The specified parent type instance was not found.',
  },
  TYPE_INSTANCE_PARAMS_INVALID: { status: 422, detail: 'Invalid type instance parameters.' },
  TYPE_INSTANCE_RENDER_FAILED: { status: 422, detail: 'The type could not be rendered.' },
  TEMPLATE_RENDER_LIMIT: {
    status: 422,
    detail: 'Rendering the type needs more work than a render may do (its template and parameters).',
  },
  TYPE_INSTANCE_TREE_TOO_LARGE: {
    status: 422,
    detail: 'The type tree would be deeper or larger than a type tree may be.',
  },
  TYPE_INSTANCE_FLAVOR_MISMATCH: {
    status: 422,
    detail: "A type tree's data types must all be of one flavor: the flavor of the dataset's system.",
  },
  FIELD_PARENT_NOT_FOUND: { status: 404, detail: 'The specified parent field was not found.' },
  FIELD_PARENT_DATASET_MISMATCH: { status: 400, detail: 'The parent field belongs to a different dataset.' },
  FIELD_TREE_TOO_DEEP: { status: 422, detail: 'The field would be nested deeper than fields may be.' },
  FIELD_CIRCULAR_REFERENCE: {
    status: 409,
    detail: 'Circular reference detected: a field cannot be its own ancestor.',
  },
  PII_TAG_INVALID: {
    status: 422,
    detail:
      'A PII tag is not in the tag format: lower-case letters and digits, words joined by _ - . or : ' +
      '(e.g. email, birth_date, gdpr:health), at most 64 characters. `details.invalid` lists each with a suggestion.',
  },
  FIELD_CLASSIFICATION_NOT_FOUND: {
    status: 404,
    detail: 'The requested field classification was not found.',
  },
  CRAWL_RUN_NOT_FOUND: { status: 404, detail: 'The requested crawl run was not found.' },
  CRAWL_RUN_INVALID_TRANSITION: {
    status: 409,
    detail: 'A crawl run can only go from running to completed or failed.',
  },

  // Lineage, templates, engines (kept for wire compatibility with the original)
  LINEAGE_JOB_NOT_FOUND: { status: 404, detail: 'The requested OpenLineage job was not found.' },
  LINEAGE_RUN_NOT_FOUND: { status: 404, detail: 'The requested OpenLineage run was not found.' },
  TECH_FIELD_TEMPLATE_NOT_FOUND: { status: 404, detail: 'The requested tech-field template was not found.' },
  TECH_FIELD_TEMPLATE_ALREADY_EXISTS: {
    status: 409,
    detail: 'A tech-field template with this code already exists.',
  },
  TECH_FIELD_TEMPLATE_LAYER_MISMATCH: { status: 400, detail: 'Template layer does not match dataset layer.' },
  TECH_FIELD_TEMPLATE_FIELD_NOT_FOUND: { status: 404, detail: 'The requested template field was not found.' },
  TECH_FIELD_TEMPLATE_FIELD_ALREADY_EXISTS: {
    status: 409,
    detail: 'A template field with this name already exists in this template.',
  },
  TECH_TYPE_CODE_NOT_RESOLVABLE: {
    status: 400,
    detail: 'Cannot resolve abstract type_code to a concrete data type for this dataset flavor.',
  },
  LAKE_SYNC_NO_SOURCE_SCHEMA: { status: 422, detail: 'Source dataset has no schema with field bindings.' },
  LAKE_SYNC_TARGET_FLAVOR_MISMATCH: { status: 422, detail: "Target system flavor must be 'iceberg_v2'." },
  LAKE_SYNC_UNKNOWN_OVERRIDE_FIELD: {
    status: 422,
    detail: 'Override references a field that does not exist on the source dataset.',
  },
  LAKE_SYNC_AMBIGUOUS_CAST: {
    status: 422,
    detail: 'Multiple cast rules match for a field; supply an explicit override.',
  },
  ENGINE_NOT_FOUND: { status: 404, detail: 'The requested engine was not found.' },
  ENGINE_IN_USE: { status: 409, detail: 'Cannot delete engine while a DatasetLink references it.' },
  ENGINE_INCOMPATIBLE_LINK: {
    status: 409,
    detail: "Engine is not compatible with this dataset link's source/target kinds.",
  },
  ENGINE_NOT_ATTACHED: { status: 409, detail: 'Dataset link has no engine attached; cannot render SQL.' },
  ENGINE_NOT_RENDERABLE: {
    status: 409,
    detail: 'Engine role does not support SQL rendering (CDC engines describe envelopes).',
  },
  ENGINE_KIND_IMMUTABLE: { status: 409, detail: 'Engine kind cannot be changed after creation.' },
  ENGINE_VERSION_INVALID: {
    status: 422,
    detail: 'Engine version is not in the supported whitelist for this kind.',
  },
  ENGINE_CODE_ALREADY_EXISTS: { status: 409, detail: 'An engine with this code already exists.' },
  // Metadata provider: workspaces, connection profiles, dataflows, watermarks, API keys (DESIGN §7)
  WORKSPACE_NOT_FOUND: { status: 404, detail: 'The requested workspace was not found.' },
  WORKSPACE_ALREADY_EXISTS: { status: 409, detail: 'A workspace with this code already exists.' },
  CONNECTION_PROFILE_NOT_FOUND: {
    status: 404,
    detail: 'The requested connection profile was not found in this workspace.',
  },
  CONNECTION_PROFILE_ALREADY_EXISTS: {
    status: 409,
    detail: 'A connection profile with this name already exists in the workspace.',
  },
  CONNECTION_PROFILE_INVALID: {
    status: 422,
    detail: 'The connection profile does not make a valid DataCoolie connection.',
  },
  CONNECTION_PROFILE_SYSTEM_MISMATCH: {
    status: 422,
    detail: "The connection type does not fit the system's kind.",
  },
  CONNECTION_PROFILE_SECRET_INLINE: {
    status: 422,
    detail: 'Secrets are never stored: give secret configure fields through credential references.',
  },
  DATAFLOW_NOT_FOUND: { status: 404, detail: 'The requested dataflow was not found.' },
  WATERMARK_TOO_LARGE: {
    status: 422,
    detail: 'The watermark value is larger than the server keeps (AIDE_WATERMARK_MAX_BYTES, in UTF-8 bytes).',
  },
  DATAFLOW_ALREADY_EXISTS: {
    status: 409,
    detail: 'A dataflow with this name already exists in the workspace.',
  },
  DATAFLOW_WORKSPACE_MISMATCH: {
    status: 422,
    detail: "A dataflow's connection profiles must belong to its workspace.",
  },
  DATAFLOW_SOURCE_INVALID: {
    status: 422,
    detail: 'A dataflow reads exactly one of a dataset, a query or a function, through a fitting profile.',
  },
  DATAFLOW_DATASET_MISMATCH: {
    status: 422,
    detail: 'The dataset cannot be addressed through this connection profile.',
  },
  DATAFLOW_UNKNOWN_COLUMNS: {
    status: 422,
    detail:
      "Watermark columns, merge keys and partition columns must be columns of the dataset's current schema.",
  },
  DATAFLOW_SOURCE_KEY_CONFLICT: {
    status: 409,
    detail: 'Another source table of the workspace would share or blur this schema-hint key.',
  },
  DATAFLOW_INVALID: { status: 422, detail: 'The dataflow does not make a valid DataCoolie dataflow.' },
  DATACOOLIE_IMPORT_INVALID: {
    status: 422,
    detail:
      'The DataCoolie document cannot be imported as it is; nothing was written. details.plan lists every problem.',
  },
  API_KEY_NOT_FOUND: { status: 404, detail: 'The requested API key was not found.' },
  API_KEY_REVOKED: { status: 409, detail: 'The API key is already revoked.' },
  API_KEY_FORBIDDEN: {
    status: 403,
    detail: 'API keys cannot call this route, or not without a scope this key lacks.',
  },
  PROVIDER_SNAPSHOT_EXPIRED: {
    status: 410,
    detail: 'This snapshot is no longer kept: start again from the first page.',
  },
  // Issue 24 (ADR 0045): a dataset's own flavor.
  DATASET_FLAVOR_KIND_MISMATCH: {
    status: 422,
    detail: "A dataset's flavor must be a flavor of its system's kind.",
  },
} as const satisfies Record<string, { status: number; detail: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(ERROR_CATALOGUE, value);
}

/** The HTTP status of a code. */
export function errorStatus(code: ErrorCode): number {
  return ERROR_CATALOGUE[code].status;
}
