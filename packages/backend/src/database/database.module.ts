import { type DynamicModule, Global, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Transactions } from './transactions.js';

/**
 * Infrastructure only (ADR 0026): the initialised DataSource and the transaction helper, available to
 * every module. Repositories are not here: each entity module provides its own and exports a
 * `<Entities>Lookup` for the modules that reference it.
 */
@Global()
@Module({})
export class DatabaseModule {
  static forDataSource(dataSource: DataSource): DynamicModule {
    const providers = [{ provide: DataSource, useValue: dataSource }, Transactions];
    return { module: DatabaseModule, providers, exports: providers };
  }
}
