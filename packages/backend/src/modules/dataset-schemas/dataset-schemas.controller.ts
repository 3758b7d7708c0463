import { datasetSchemaResource } from '@aide/schemas';
import { CrudController } from '../../common/crud/crud-controller.js';
import { DatasetSchemasService } from './dataset-schemas.service.js';

export class DatasetSchemasController extends CrudController(datasetSchemaResource, DatasetSchemasService) {}
