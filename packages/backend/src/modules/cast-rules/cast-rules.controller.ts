import { castRuleResource, contract } from '@aide/schemas';
import { Route, type RouteInput } from '../../common/contract/route.decorator.js';
import { CrudController } from '../../common/crud/crud-controller.js';
import { CastRulesService } from './cast-rules.service.js';

const route = contract.castRules.resolve;

export class CastRulesController extends CrudController(castRuleResource, CastRulesService) {
  constructor(private readonly castRules: CastRulesService) {
    super(castRules);
  }

  /** A read: answers what a type becomes in another flavor, writes nothing. */
  @Route(route)
  resolve({ body }: RouteInput<typeof route>) {
    return this.castRules.resolve(body);
  }
}
