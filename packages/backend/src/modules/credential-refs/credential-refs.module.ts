import { Module } from '@nestjs/common';
import { CredentialRefsController } from './credential-refs.controller.js';
import { CredentialRefsService } from './credential-refs.service.js';
import { CredentialRefsRepository } from './credential-refs.repository.js';
import { CredentialRefsLookup } from './credential-refs.lookup.js';

@Module({
  controllers: [CredentialRefsController],
  providers: [CredentialRefsRepository, CredentialRefsLookup, CredentialRefsService],
  exports: [CredentialRefsLookup, CredentialRefsService],
})
export class CredentialRefsModule {}
