import { Global, Module } from '@nestjs/common';
import { IdempotencyRepository } from './idempotency.repository.js';

/**
 * The Idempotency-Key table, global because `@Route` puts the interceptor on any module's handlers
 * (ADR 0026: the one repository outside an entity module, cross-cutting like the transaction helper).
 */
@Global()
@Module({ providers: [IdempotencyRepository], exports: [IdempotencyRepository] })
export class IdempotencyModule {}
