import { connectionProfileResource } from '@aide/schemas';
import { CrudController } from '../../common/crud/crud-controller.js';
import { ConnectionProfilesService } from './connection-profiles.service.js';

export class ConnectionProfilesController extends CrudController(
  connectionProfileResource,
  ConnectionProfilesService,
) {}
