import type {
  CastRule,
  CreateCastRule,
  ListQuery,
  Page,
  ResolveCastRequest,
  ResolveCastResult,
  UpdateCastRule,
} from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user.js';
import { assertUniqueInBatch } from '../../common/crud/batch.js';
import type { CrudService } from '../../common/crud/crud-service.js';
import { mapPage } from '../../common/crud/list.js';
import { splitUpdate } from '../../common/crud/update-input.js';
import { AppError } from '../../common/errors/app-error.js';
import { Transactions } from '../../database/transactions.js';
import { DataTypesLookup } from '../data-types/data-types.lookup.js';
import { SystemFlavorsLookup } from '../system-flavors/system-flavors.lookup.js';
import { TypeInstancesLookup } from '../type-instances/type-instances.lookup.js';
import { buildTypeTrees, renderTypeText, type TypeTreeNode } from '../type-instances/type-tree.js';
import { paramMappingIssues } from '../type-system/cast-mapping.js';
import { paramNamesOf, type ParamsJsonSchema, validateTypeParams } from '../type-system/params-schema.js';
import type { CastRuleEntity } from './cast-rule.entity.js';
import { toCastRule } from './cast-rule.mapper.js';
import { resolveCast } from './cast-resolver.js';
import type { CastCandidate } from './cast-resolver.js';
import { CastRulesRepository } from './cast-rules.repository.js';

@Injectable()
export class CastRulesService implements CrudService<CastRule, CreateCastRule, UpdateCastRule> {
  constructor(
    private readonly rules: CastRulesRepository,
    private readonly dataTypes: DataTypesLookup,
    private readonly flavors: SystemFlavorsLookup,
    private readonly typeInstances: TypeInstancesLookup,
    private readonly tx: Transactions,
  ) {}

  async list(query: ListQuery): Promise<Page<CastRule>> {
    return mapPage(await this.rules.crud.findPage(query), toCastRule);
  }

  get(id: string): Promise<CastRule> {
    return this.rules.crud.getActivePrepared(id).then(toCastRule);
  }

  /**
   * Both data types active; every `@param` of a mapping a source param, every key a target param.
   * The data types of all rules are loaded in one query.
   */
  private async checkRules(
    rules: readonly Pick<CastRuleEntity, 'source_data_type_id' | 'target_data_type_id' | 'param_mapping'>[],
    m: EntityManager,
  ): Promise<void> {
    const ids = rules.flatMap((r) => [r.source_data_type_id, r.target_data_type_id]);
    const types = await this.dataTypes.lockActiveMany(ids, m);
    for (const rule of rules) {
      const source = types.get(rule.source_data_type_id);
      const target = types.get(rule.target_data_type_id);
      if (!source || !target) throw new AppError('DATA_TYPE_NOT_FOUND');
      const issues = paramMappingIssues(
        rule.param_mapping,
        paramNamesOf(source.params_schema as unknown as ParamsJsonSchema),
        paramNamesOf(target.params_schema as unknown as ParamsJsonSchema),
      );
      if (issues.length > 0) {
        throw new AppError('VALIDATION_ERROR', 'The param_mapping does not fit the two data types.', {
          issues: issues.map((i) => ({ ...i, path: ['param_mapping', ...i.path] })),
        });
      }
    }
  }

  create(input: CreateCastRule, actor: AuthUser): Promise<CastRule> {
    const values = { ...input, param_mapping: input.param_mapping ?? {} };
    return this.tx.run(async (m) => {
      await this.checkRules([values], m);
      return toCastRule(await this.rules.crud.insert(values, actor.id, m));
    });
  }

  createMany(items: CreateCastRule[], actor: AuthUser): Promise<CastRule[]> {
    assertUniqueInBatch(
      items,
      (i) => `${i.source_data_type_id}/${i.target_data_type_id}`,
      'CAST_RULE_ALREADY_EXISTS',
    );
    const values = items.map((i) => ({ ...i, param_mapping: i.param_mapping ?? {} }));
    return this.tx.run(async (m) => {
      await this.checkRules(values, m);
      return (await this.rules.crud.insertMany(values, actor.id, m)).map(toCastRule);
    });
  }

  update(id: string, input: UpdateCastRule, ifMatch: number | undefined, actor: AuthUser): Promise<CastRule> {
    const { changes, version } = splitUpdate(input, ifMatch);
    return this.tx.run(async (m) => {
      const current = await this.rules.crud.getActive(id, m);
      await this.checkRules([{ ...current, ...changes }], m);
      return toCastRule(await this.rules.crud.update(id, changes, version, actor.id, m));
    });
  }

  remove(id: string): Promise<CastRule> {
    return this.tx.run(async (m) => toCastRule(await this.rules.crud.hardDelete(id, m)));
  }

  /** What a type (an instance's whole tree, or a data type with params) becomes in the target flavor. */
  async resolve(input: ResolveCastRequest): Promise<ResolveCastResult> {
    const flavor = await this.flavors.findActiveByCode(input.target_flavor);
    if (!flavor) throw new AppError('SYSTEM_FLAVOR_NOT_FOUND', `No flavor '${input.target_flavor}'.`);
    const source = await this.sourceTree(input);
    const ids = new Set<string>();
    const collect = (n: TypeTreeNode): void => {
      ids.add(n.data_type_id);
      n.children.forEach(collect);
    };
    collect(source);
    const bySource = new Map<string, CastCandidate[]>();
    for (const c of await this.rules.candidates([...ids], flavor.id)) {
      bySource.set(c.source_data_type_id, [...(bySource.get(c.source_data_type_id) ?? []), c]);
    }
    const outcome = resolveCast(source, bySource, await this.rules.gaps([...ids], flavor.id));
    const rendered = renderTypeText(outcome.root);
    return {
      cast_rule_id: outcome.rule.id,
      source_data_type_id: source.data_type_id,
      source_code: source.code,
      target_data_type_id: outcome.root.data_type_id,
      target_code: outcome.root.code,
      target_flavor: flavor.code,
      type_params: outcome.root.type_params ?? {},
      rendered,
      safety: outcome.safety,
      fidelity: outcome.fidelity,
      loss: outcome.loss,
    };
  }

  private async sourceTree(input: ResolveCastRequest): Promise<TypeTreeNode> {
    if (input.type_instance_id) {
      await this.typeInstances.requireActive(input.type_instance_id);
      const tree = buildTypeTrees(await this.typeInstances.subtrees([input.type_instance_id])).get(
        input.type_instance_id,
      );
      if (!tree) throw new AppError('TYPE_INSTANCE_NOT_FOUND');
      return tree;
    }
    const dataType = await this.dataTypes.requireActive(input.data_type_id as string);
    const params = validateTypeParams(dataType.params_schema, input.type_params ?? {});
    if (!params.ok) throw new AppError('TYPE_INSTANCE_PARAMS_INVALID', undefined, { issues: params.issues });
    return {
      id: dataType.id,
      data_type_id: dataType.id,
      code: dataType.code,
      render_template: dataType.render_template,
      type_params: params.value,
      slot: null,
      children: [],
    };
  }
}
