import { contract } from '@aide/schemas';
import { Controller } from '@nestjs/common';
import { Route, type RouteInput } from '../../common/contract/route.decorator.js';
import { TypeSpecRenderer } from './type-spec-renderer.js';

const route = contract.typeInstances.renderSpec;

/** Type specs rendered without storing them: the type catalogue's live preview. */
@Controller()
export class TypeSpecsController {
  constructor(private readonly specs: TypeSpecRenderer) {}

  @Route(route)
  render({ body }: RouteInput<typeof route>) {
    return this.specs.render(body);
  }
}
