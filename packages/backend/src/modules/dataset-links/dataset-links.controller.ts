import { datasetLinkResource } from '@aide/schemas';
import { CrudController } from '../../common/crud/crud-controller.js';
import { DatasetLinksService } from './dataset-links.service.js';

export class DatasetLinksController extends CrudController(datasetLinkResource, DatasetLinksService) {}
