import { contract } from '@aide/schemas';
import { Controller } from '@nestjs/common';
import { respond, Route, type RouteInput } from '../../common/contract/route.decorator.js';
import { SchemaVersionsService } from './schema-versions.service.js';

const routes = contract.schemaVersions;

/** Whole schema versions of a dataset: publish, history, one version, diff. */
@Controller()
export class SchemaVersionsController {
  constructor(private readonly versions: SchemaVersionsService) {}

  /** 201 with the new version, or 200 with `created: false` when nothing changed. */
  @Route(routes.publish)
  async publish({ params, body, user }: RouteInput<typeof routes.publish>) {
    const result = await this.versions.publish(params.id, body, user);
    return respond(routes.publish, result.created ? 201 : 200, result);
  }

  @Route(routes.history)
  history({ params }: RouteInput<typeof routes.history>) {
    return this.versions.history(params.id);
  }

  @Route(routes.diff)
  diff({ params, query }: RouteInput<typeof routes.diff>) {
    return this.versions.diff(params.id, query.from, query.to);
  }

  @Route(routes.get)
  get({ params }: RouteInput<typeof routes.get>) {
    return this.versions.get(params.id, params.num);
  }
}
