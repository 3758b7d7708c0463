import { systemKindResource } from '@aide/schemas';
import { CrudController } from '../../common/crud/crud-controller.js';
import { SystemKindsService } from './system-kinds.service.js';

export class SystemKindsController extends CrudController(systemKindResource, SystemKindsService) {}
