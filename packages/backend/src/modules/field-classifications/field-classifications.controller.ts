import { contract, fieldClassificationResource } from '@aide/schemas';
import { Route, type RouteInput } from '../../common/contract/route.decorator.js';
import { CrudController } from '../../common/crud/crud-controller.js';
import { FieldClassificationsService } from './field-classifications.service.js';

const routes = contract.fieldClassifications;

export class FieldClassificationsController extends CrudController(
  fieldClassificationResource,
  FieldClassificationsService,
) {
  constructor(private readonly classifications: FieldClassificationsService) {
    super(classifications);
  }

  @Route(routes.current)
  current({ params }: RouteInput<typeof routes.current>) {
    return this.classifications.currentOfField(params.id);
  }

  @Route(routes.tags)
  tags() {
    return this.classifications.tags();
  }

  @Route(routes.currentOfDataset)
  currentOfDataset({ params }: RouteInput<typeof routes.currentOfDataset>) {
    return this.classifications.currentOfDataset(params.id);
  }
}
