import { contract } from '@aide/schemas';
import { Controller } from '@nestjs/common';
import { Route, type RouteInput } from '../../common/contract/route.decorator.js';
import { SchemaVersionsService } from './schema-versions.service.js';

const routes = contract.schemaVersions;

/** Many datasets' versions in one request, each atomic on its own and checked against its base version. */
@Controller()
export class SchemaVersionsBulkController {
  constructor(private readonly versions: SchemaVersionsService) {}

  @Route(routes.bulkPublish)
  publishMany({ body, user }: RouteInput<typeof routes.bulkPublish>) {
    return this.versions.publishMany(body.items, user);
  }
}
