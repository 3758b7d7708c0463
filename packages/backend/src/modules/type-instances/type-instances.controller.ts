import { contract, typeInstanceResource } from '@aide/schemas';
import { Route, type RouteInput } from '../../common/contract/route.decorator.js';
import { CrudController } from '../../common/crud/crud-controller.js';
import { TypeInstancesService } from './type-instances.service.js';

const routes = contract.typeInstances;

export class TypeInstancesController extends CrudController(typeInstanceResource, TypeInstancesService) {
  constructor(private readonly typeInstances: TypeInstancesService) {
    super(typeInstances);
  }

  @Route(routes.tree)
  tree({ params }: RouteInput<typeof routes.tree>) {
    return this.typeInstances.tree(params.id);
  }

  /** The rendered type text of the whole tree under this node, e.g. `numeric(12,2)` or `integer[]`. */
  @Route(routes.render)
  render({ params }: RouteInput<typeof routes.render>) {
    return this.typeInstances.render(params.id);
  }
}
