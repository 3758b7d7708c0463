import { Module } from '@nestjs/common';
import { ApiKeysController } from './api-keys.controller.js';
import { ApiKeyAuthenticator } from './api-key.authenticator.js';
import { ApiKeysService } from './api-keys.service.js';

@Module({
  controllers: [ApiKeysController],
  providers: [ApiKeysService, ApiKeyAuthenticator],
  exports: [ApiKeysService, ApiKeyAuthenticator],
})
export class ApiKeysModule {}
