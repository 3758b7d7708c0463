import { Module } from '@nestjs/common';
import { CredentialRefsController } from './credential-refs.controller.js';
import { CredentialRefsService } from './credential-refs.service.js';

@Module({ controllers: [CredentialRefsController], providers: [CredentialRefsService] })
export class CredentialRefsModule {}
