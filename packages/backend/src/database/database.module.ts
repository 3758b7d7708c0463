import { type DynamicModule, Global, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { IdempotencyRepository } from '../common/idempotency/idempotency.repository.js';
import { RefreshTokensRepository } from '../modules/auth/refresh-tokens.repository.js';
import { CastRulesRepository } from '../modules/cast-rules/cast-rules.repository.js';
import { CrawlRunsRepository } from '../modules/crawl-runs/crawl-runs.repository.js';
import { DataTypesRepository } from '../modules/data-types/data-types.repository.js';
import { DatasetSchemasRepository } from '../modules/dataset-schemas/dataset-schemas.repository.js';
import { DatasetsRepository } from '../modules/datasets/datasets.repository.js';
import { EnginesRepository } from '../modules/engines/engines.repository.js';
import { DatasetLinksRepository } from '../modules/dataset-links/dataset-links.repository.js';
import { FieldLinksRepository } from '../modules/field-links/field-links.repository.js';
import { TechFieldTemplatesRepository } from '../modules/tech-field-templates/tech-field-templates.repository.js';
import { FieldBindingsRepository } from '../modules/field-bindings/field-bindings.repository.js';
import { FieldClassificationsRepository } from '../modules/field-classifications/field-classifications.repository.js';
import { FieldsRepository } from '../modules/fields/fields.repository.js';
import { TypeInstancesRepository } from '../modules/type-instances/type-instances.repository.js';
import { ThrottleRepository } from '../modules/auth/throttle.repository.js';
import { CredentialRefsRepository } from '../modules/credential-refs/credential-refs.repository.js';
import { SystemFlavorsRepository } from '../modules/system-flavors/system-flavors.repository.js';
import { SystemKindsRepository } from '../modules/system-kinds/system-kinds.repository.js';
import { SystemsRepository } from '../modules/systems/systems.repository.js';
import { UsersRepository } from '../modules/users/users.repository.js';
import { Transactions } from './transactions.js';

/**
 * The initialised DataSource, the transaction helper and every repository, available to all modules:
 * services read across tables (delete guards, parent checks), and repositories hold no rules.
 */
const REPOSITORIES = [
  UsersRepository,
  RefreshTokensRepository,
  ThrottleRepository,
  IdempotencyRepository,
  SystemKindsRepository,
  SystemFlavorsRepository,
  CredentialRefsRepository,
  SystemsRepository,
  DataTypesRepository,
  TypeInstancesRepository,
  CastRulesRepository,
  DatasetsRepository,
  FieldsRepository,
  FieldClassificationsRepository,
  DatasetSchemasRepository,
  FieldBindingsRepository,
  CrawlRunsRepository,
  EnginesRepository,
  DatasetLinksRepository,
  FieldLinksRepository,
  TechFieldTemplatesRepository,
];

@Global()
@Module({})
export class DatabaseModule {
  static forDataSource(dataSource: DataSource): DynamicModule {
    const providers = [{ provide: DataSource, useValue: dataSource }, Transactions, ...REPOSITORIES];
    return { module: DatabaseModule, providers, exports: providers };
  }
}
