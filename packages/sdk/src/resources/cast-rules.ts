import {
  contract,
  type CastRule,
  type CreateCastRule,
  type ResolveCastRequest,
  type ResolveCastResult,
  type UpdateCastRule,
} from '@aide/schemas';
import type { RequestOptions } from '../core/request-options.js';
import { CrudResource } from './crud.js';

/**
 * The body of `castRules.resolve()`: the source type — a type instance, or a data type with its
 * params — and the code of the target flavor. Exactly one of `type_instance_id` and `data_type_id`.
 */
export type ResolveCastParams = ResolveCastRequest &
  (
    | { type_instance_id: string; data_type_id?: undefined }
    | { data_type_id: string; type_instance_id?: undefined }
  );

/**
 * `/api/v1/cast-rules`: how a data type of one flavor maps to a data type of another (reference data,
 * written by superusers; hard deletes). `createMany` is added by the client.
 */
export class CastRulesResource extends CrudResource<CastRule, CreateCastRule, UpdateCastRule> {
  /**
   * `POST /cast-rules/resolve` — what a type becomes in another flavor: the target data type, its
   * params (mapped by the rule's `param_mapping`), the rendered text and the rule's safety.
   *
   * ```ts
   * const cast = await client.castRules.resolve({ type_instance_id: id, target_flavor: 'iceberg_v2' });
   * cast.rendered; // 'decimal(12,2)'
   * ```
   *
   * No rule to the target flavor: `ValidationError` with `errorCode === 'CAST_RULE_NOT_RESOLVABLE'`;
   * several: `CAST_RULE_AMBIGUOUS`; an unknown flavor, type or instance: `NotFoundError`. It writes
   * nothing, so it is retried like a GET.
   */
  resolve(body: ResolveCastParams, options?: RequestOptions): Promise<ResolveCastResult> {
    return this.api.invoke(contract.castRules.resolve, { body, options });
  }
}
