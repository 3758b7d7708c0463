import { contract } from '@aide/schemas';
import { Controller } from '@nestjs/common';
import { Route, type RouteInput } from '../../common/contract/route.decorator.js';
import { SchemaVersionCheckService } from './schema-version-check.service.js';

const routes = contract.compatibility;

/** Would these versions be accepted by their datasets' compatibility levels (ADR 0048)? */
@Controller()
export class SchemaVersionCheckController {
  constructor(private readonly checks: SchemaVersionCheckService) {}

  @Route(routes.check)
  check({ params, body }: RouteInput<typeof routes.check>) {
    return this.checks.check(params.id, body);
  }

  @Route(routes.bulkCheck)
  checkMany({ body }: RouteInput<typeof routes.bulkCheck>) {
    return this.checks.checkMany(body.items);
  }
}
