import { Module } from '@nestjs/common';
import { ConnectionProfilesModule } from '../connection-profiles/connection-profiles.module.js';
import { CredentialRefsController } from './credential-refs.controller.js';
import { CredentialRefsService } from './credential-refs.service.js';

@Module({
  imports: [ConnectionProfilesModule],
  controllers: [CredentialRefsController],
  providers: [CredentialRefsService],
})
export class CredentialRefsModule {}
