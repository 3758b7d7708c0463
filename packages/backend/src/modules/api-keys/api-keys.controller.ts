import { apiKeyResource } from '@aide/schemas';
import { CrudController } from '../../common/crud/crud-controller.js';
import { ApiKeysService } from './api-keys.service.js';

/** List, get and create (the answer shows the key once); revocation is a route of its own. */
export class ApiKeysController extends CrudController(apiKeyResource, ApiKeysService) {}
