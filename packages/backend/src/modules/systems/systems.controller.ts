import { systemResource } from '@aide/schemas';
import { CrudController } from '../../common/crud/crud-controller.js';
import { SystemsService } from './systems.service.js';

export class SystemsController extends CrudController(systemResource, SystemsService) {}
