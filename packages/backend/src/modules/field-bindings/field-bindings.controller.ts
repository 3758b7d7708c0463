import { fieldBindingResource } from '@aide/schemas';
import { CrudController } from '../../common/crud/crud-controller.js';
import { FieldBindingsService } from './field-bindings.service.js';

export class FieldBindingsController extends CrudController(fieldBindingResource, FieldBindingsService) {}
