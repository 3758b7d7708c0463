import { dataflowResource } from '@aide/schemas';
import { CrudController } from '../../common/crud/crud-controller.js';
import { DataflowsService } from './dataflows.service.js';

export class DataflowsController extends CrudController(dataflowResource, DataflowsService) {}
