import type { z } from 'zod';
import type { ErrorCode } from './errors/error-codes.js';
import type { ListSpec } from './common/list-query.js';

/** Who may call a route: any active user, or superusers only. */
export type Role = 'user' | 'superuser';

/**
 * What an API key may do on a collection's routes (ADR 0020, amendment of issue 22): `workspace`
 * (workspace-owned rows: every route, within the key's workspaces); `catalogue` (the shared catalogue:
 * reads with the `catalogue:read` scope, creates and updates with `catalogue:write`, deletes and
 * restores never); `reference` (reference data: reads with `catalogue:read`, writes never); `none`.
 */
export type ResourceKeys = 'workspace' | 'catalogue' | 'reference' | 'none';

/**
 * A REST collection of the registry: the one description that drives the backend's validation and
 * routes, the OpenAPI document and the SDK's resource types.
 */
export interface ResourceDef<
  TRead extends z.ZodType = z.ZodType,
  TCreate extends z.ZodType = z.ZodType,
  TUpdate extends z.ZodType = z.ZodType,
> {
  /** URL segment under `/api/v1`, e.g. `system-kinds`. */
  readonly path: string;
  /** OpenAPI tag and human label, e.g. `System kinds`. */
  readonly tag: string;
  /** Schema component name of the read shape, e.g. `SystemKind`. */
  readonly name: string;
  readonly read: TRead;
  readonly create: TCreate;
  readonly update: TUpdate;
  readonly list: ListSpec;
  readonly notFound: ErrorCode;
  /** Who may list and read (default `user`: any active user). */
  readonly readRole?: Role;
  readonly writeRole: Role;
  /** What an API key may do on the collection's routes (required: keys are refused unless declared). */
  readonly keys: ResourceKeys;
  /** Soft-delete resources have `POST /{id}/restore` and `include_deleted`. */
  readonly softDelete: boolean;
  readonly batch: boolean;
  /** Routes the collection lacks: append-only and audit collections have no update or delete. */
  readonly without?: readonly ('update' | 'delete')[];
  /** Errors a create or update may answer with, for the OpenAPI document. */
  readonly errors: readonly ErrorCode[];
  /** Errors a delete may answer with besides the not-found code (default: HAS_DEPENDENT_ENTITIES). */
  readonly deleteErrors?: readonly ErrorCode[];
  /** Errors a restore may answer with besides the not-found code and ENTITY_NOT_DELETED. */
  readonly restoreErrors?: readonly ErrorCode[];
}

/**
 * Declares a resource. Its flags keep their literal types (`softDelete: true`, `without: ['delete']`),
 * so the SDK derives each collection's routes from the definition alone.
 */
export function defineResource<const D extends ResourceDef>(def: D): D {
  return def;
}
