import { systemFlavorResource } from '@aide/schemas';
import { CrudController } from '../../common/crud/crud-controller.js';
import { SystemFlavorsService } from './system-flavors.service.js';

export class SystemFlavorsController extends CrudController(systemFlavorResource, SystemFlavorsService) {}
