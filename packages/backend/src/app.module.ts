import { type DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { DataSource } from 'typeorm';
import { AuthGuard } from './common/auth/auth.guard.js';
import { AUTHENTICATORS } from './common/auth/authenticator.js';
import { BearerJwtAuthenticator } from './common/auth/bearer-jwt.authenticator.js';
import { PasswordHasher } from './common/auth/password-hasher.js';
import { TokenStateCache } from './common/auth/token-state-cache.js';
import { TokenService } from './common/auth/token.service.js';
import { APP_CONFIG, type ResolvedConfig } from './config/config.js';
import { IdempotencyModule } from './common/idempotency/idempotency.module.js';
import { DatabaseModule } from './database/database.module.js';
import { AuthModule } from './modules/auth/auth.module.js';
import { CastRulesModule } from './modules/cast-rules/cast-rules.module.js';
import { CrawlRunsModule } from './modules/crawl-runs/crawl-runs.module.js';
import { DataTypesModule } from './modules/data-types/data-types.module.js';
import { DatasetSchemasModule } from './modules/dataset-schemas/dataset-schemas.module.js';
import { DatasetsModule } from './modules/datasets/datasets.module.js';
import { EnginesModule } from './modules/engines/engines.module.js';
import { TechFieldTemplatesModule } from './modules/tech-field-templates/tech-field-templates.module.js';
import { DatasetLinksModule } from './modules/dataset-links/dataset-links.module.js';
import { FieldLinksModule } from './modules/field-links/field-links.module.js';
import { LakeSyncModule } from './modules/lake-sync/lake-sync.module.js';
import { TranslationsModule } from './modules/translations/translations.module.js';
import { LineageModule } from './modules/lineage/lineage.module.js';
import { FieldBindingsModule } from './modules/field-bindings/field-bindings.module.js';
import { FieldClassificationsModule } from './modules/field-classifications/field-classifications.module.js';
import { FieldsModule } from './modules/fields/fields.module.js';
import { SchemaVersionsModule } from './modules/schema-versions/schema-versions.module.js';
import { CompatibilityModule } from './modules/compatibility/compatibility.module.js';
import { SearchModule } from './modules/search/search.module.js';
import { TypeInstancesModule } from './modules/type-instances/type-instances.module.js';
import { HousekeepingModule } from './modules/housekeeping/housekeeping.module.js';
import { MetricsModule } from './modules/metrics/metrics.module.js';
import { APP_METRICS } from './modules/metrics/metrics.controller.js';
import type { AppMetrics } from './modules/metrics/metrics.js';
import { CredentialRefsModule } from './modules/credential-refs/credential-refs.module.js';
import { PlatformModule } from './modules/health/health.module.js';
import { SystemFlavorsModule } from './modules/system-flavors/system-flavors.module.js';
import { SystemKindsModule } from './modules/system-kinds/system-kinds.module.js';
import { SystemsModule } from './modules/systems/systems.module.js';
import { UsersModule } from './modules/users/users.module.js';
import { ApiKeyAuthenticator } from './modules/api-keys/api-key.authenticator.js';
import { ApiKeysModule } from './modules/api-keys/api-keys.module.js';
import { ConnectionProfilesModule } from './modules/connection-profiles/connection-profiles.module.js';
import { DatacoolieApiModule } from './modules/datacoolie-api/datacoolie-api.module.js';
import { DatacoolieImportModule } from './modules/datacoolie-import/datacoolie-import.module.js';
import { DataflowsModule } from './modules/dataflows/dataflows.module.js';
import { WatermarksModule } from './modules/watermarks/watermarks.module.js';
import { WorkspacesModule } from './modules/workspaces/workspaces.module.js';

@Module({})
export class AppModule {
  static create(config: ResolvedConfig, dataSource: DataSource, metrics: AppMetrics): DynamicModule {
    const shared = [
      { provide: APP_CONFIG, useValue: config },
      { provide: APP_METRICS, useValue: metrics },
      TokenService,
      TokenStateCache,
      PasswordHasher,
    ];
    return {
      module: AppModule,
      global: true,
      imports: [
        DatabaseModule.forDataSource(dataSource),
        IdempotencyModule,
        PlatformModule,
        MetricsModule,
        HousekeepingModule,
        AuthModule,
        UsersModule,
        SystemKindsModule,
        SystemFlavorsModule,
        CredentialRefsModule,
        SystemsModule,
        DataTypesModule,
        TypeInstancesModule,
        CastRulesModule,
        DatasetsModule,
        FieldsModule,
        FieldClassificationsModule,
        DatasetSchemasModule,
        FieldBindingsModule,
        SchemaVersionsModule,
        CompatibilityModule,
        CrawlRunsModule,
        EnginesModule,
        TechFieldTemplatesModule,
        DatasetLinksModule,
        FieldLinksModule,
        LineageModule,
        LakeSyncModule,
        TranslationsModule,
        SearchModule,
        WorkspacesModule,
        ConnectionProfilesModule,
        DataflowsModule,
        WatermarksModule,
        DatacoolieApiModule,
        DatacoolieImportModule,
        ApiKeysModule,
      ],
      providers: [
        ...shared,
        BearerJwtAuthenticator,
        {
          // API keys first: they claim their own X-API-Key header and `aidek_` bearer tokens only.
          provide: AUTHENTICATORS,
          useFactory: (keys: ApiKeyAuthenticator, jwt: BearerJwtAuthenticator) => [keys, jwt],
          inject: [ApiKeyAuthenticator, BearerJwtAuthenticator],
        },
        { provide: APP_GUARD, useClass: AuthGuard },
      ],
      exports: shared,
    };
  }
}
