import { contract, fieldResource } from '@aide/schemas';
import { Route, type RouteInput } from '../../common/contract/route.decorator.js';
import { CrudController } from '../../common/crud/crud-controller.js';
import { FieldsService } from './fields.service.js';

const routes = contract.fields;

export class FieldsController extends CrudController(fieldResource, FieldsService) {
  constructor(private readonly fields: FieldsService) {
    super(fields);
  }

  /** The dataset's fields as a tree, built from one query whatever the depth. */
  @Route(routes.tree)
  tree({ params }: RouteInput<typeof routes.tree>) {
    return this.fields.tree(params.id);
  }

  @Route(routes.children)
  children({ params }: RouteInput<typeof routes.children>) {
    return this.fields.children(params.id);
  }
}
