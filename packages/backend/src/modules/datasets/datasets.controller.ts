import { datasetResource } from '@aide/schemas';
import { CrudController } from '../../common/crud/crud-controller.js';
import { DatasetsService } from './datasets.service.js';

export class DatasetsController extends CrudController(datasetResource, DatasetsService) {}
