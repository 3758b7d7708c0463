import { engineResource } from '@aide/schemas';
import { CrudController } from '../../common/crud/crud-controller.js';
import { EnginesService } from './engines.service.js';

export class EnginesController extends CrudController(engineResource, EnginesService) {}
