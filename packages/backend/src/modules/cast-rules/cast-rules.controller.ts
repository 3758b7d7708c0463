import {
  castRuleResource,
  type ResolveCastRequest,
  ResolveCastRequestSchema,
  type ResolveCastResult,
} from '@aide/schemas';
import { Body, HttpCode, Post } from '@nestjs/common';
import { CrudController } from '../../common/crud/crud-controller.js';
import { body } from '../../common/validation/zod.pipe.js';
import { CastRulesService } from './cast-rules.service.js';

export class CastRulesController extends CrudController(castRuleResource, CastRulesService) {
  constructor(private readonly castRules: CastRulesService) {
    super(castRules);
  }

  /** A read: answers what a type becomes in another flavor, writes nothing. */
  @Post('resolve')
  @HttpCode(200)
  resolve(@Body(body(ResolveCastRequestSchema)) input: ResolveCastRequest): Promise<ResolveCastResult> {
    return this.castRules.resolve(input);
  }
}
