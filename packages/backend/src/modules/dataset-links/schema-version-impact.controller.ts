import { contract } from '@aide/schemas';
import { Controller } from '@nestjs/common';
import { Route, type RouteInput } from '../../common/contract/route.decorator.js';
import { SchemaVersionImpactService } from './schema-version-impact.service.js';

const route = contract.schemaVersions.impact;

/** Impact analysis of a would-be schema version (ADR 0021), next to the publish route it previews. */
@Controller()
export class SchemaVersionImpactController {
  constructor(private readonly impact: SchemaVersionImpactService) {}

  /** What publishing this body would break: links and field links compared now and re-pinned to it. */
  @Route(route)
  preview({ params, body, user }: RouteInput<typeof route>) {
    return this.impact.preview(params.id, body, user);
  }
}
