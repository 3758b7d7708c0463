import { Module } from '@nestjs/common';
import { WorkspacesModule } from '../workspaces/workspaces.module.js';
import { ApiKeysController } from './api-keys.controller.js';
import { ApiKeyAuthenticator } from './api-key.authenticator.js';
import { ApiKeysRepository } from './api-keys.repository.js';
import { ApiKeysService } from './api-keys.service.js';

@Module({
  imports: [WorkspacesModule],
  controllers: [ApiKeysController],
  providers: [ApiKeysService, ApiKeysRepository, ApiKeyAuthenticator],
  exports: [ApiKeysService, ApiKeyAuthenticator],
})
export class ApiKeysModule {}
