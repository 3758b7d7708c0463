import { dataTypeResource } from '@aide/schemas';
import { CrudController } from '../../common/crud/crud-controller.js';
import { DataTypesService } from './data-types.service.js';

export class DataTypesController extends CrudController(dataTypeResource, DataTypesService) {}
