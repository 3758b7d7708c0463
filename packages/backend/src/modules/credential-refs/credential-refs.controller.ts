import { credentialRefResource } from '@aide/schemas';
import { CrudController } from '../../common/crud/crud-controller.js';
import { CredentialRefsService } from './credential-refs.service.js';

export class CredentialRefsController extends CrudController(credentialRefResource, CredentialRefsService) {}
