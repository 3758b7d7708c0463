import { type DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { DataSource } from 'typeorm';
import { AuthGuard } from './common/auth/auth.guard.js';
import { PasswordHasher } from './common/auth/password-hasher.js';
import { TokenService } from './common/auth/token.service.js';
import { APP_CONFIG, type ResolvedConfig } from './config/config.js';
import { DatabaseModule } from './database/database.module.js';
import { AuthModule } from './modules/auth/auth.module.js';
import { CredentialRefsModule } from './modules/credential-refs/credential-refs.module.js';
import { PlatformModule } from './modules/health/health.module.js';
import { SystemFlavorsModule } from './modules/system-flavors/system-flavors.module.js';
import { SystemKindsModule } from './modules/system-kinds/system-kinds.module.js';
import { SystemsModule } from './modules/systems/systems.module.js';
import { UsersModule } from './modules/users/users.module.js';

@Module({})
export class AppModule {
  static create(config: ResolvedConfig, dataSource: DataSource): DynamicModule {
    const shared = [{ provide: APP_CONFIG, useValue: config }, TokenService, PasswordHasher];
    return {
      module: AppModule,
      global: true,
      imports: [
        DatabaseModule.forDataSource(dataSource),
        PlatformModule,
        AuthModule,
        UsersModule,
        SystemKindsModule,
        SystemFlavorsModule,
        CredentialRefsModule,
        SystemsModule,
      ],
      providers: [...shared, { provide: APP_GUARD, useClass: AuthGuard }],
      exports: shared,
    };
  }
}
