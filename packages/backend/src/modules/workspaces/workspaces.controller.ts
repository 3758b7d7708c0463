import { workspaceResource } from '@aide/schemas';
import { CrudController } from '../../common/crud/crud-controller.js';
import { WorkspacesService } from './workspaces.service.js';

export class WorkspacesController extends CrudController(workspaceResource, WorkspacesService) {}
