import {
  type PublishResult,
  PublishSchemaVersionSchema,
  type SchemaVersion,
  type SchemaVersionDiff,
  SchemaVersionDiffQuerySchema,
  type SchemaVersionSummary,
} from '@aide/schemas';
import { Body, Controller, Get, Param, Post, Query, Res, UseInterceptors } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import { type AuthUser, CurrentUser } from '../../common/auth/current-user.js';
import { validationError } from '../../common/errors/app-error.js';
import { IdempotencyInterceptor } from '../../common/idempotency/idempotency.interceptor.js';
import { body, noQuery, UuidPipe, ZodPipe } from '../../common/validation/zod.pipe.js';
import { SchemaVersionsService } from './schema-versions.service.js';

function versionNum(raw: string): number {
  const n = /^\d{1,10}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > 2147483647) {
    throw validationError(
      [{ path: ['version_num'], message: 'must be a positive integer' }],
      'The path is invalid.',
    );
  }
  return n;
}

const diffQuery = new ZodPipe(SchemaVersionDiffQuerySchema, 'query string');

/** Whole schema versions of a dataset: publish, history, one version, diff. */
@Controller('api/v1/datasets/:id/schema-versions')
export class SchemaVersionsController {
  constructor(private readonly versions: SchemaVersionsService) {}

  /** 201 with the new version, or 200 with `created: false` when nothing changed. */
  @Post()
  @UseInterceptors(IdempotencyInterceptor)
  async publish(
    @Param('id', UuidPipe) id: string,
    @Body(body(PublishSchemaVersionSchema)) input: z.output<typeof PublishSchemaVersionSchema>,
    @CurrentUser() user: AuthUser,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PublishResult> {
    const result = await this.versions.publish(id, input, user);
    void reply.status(result.created ? 201 : 200);
    return result;
  }

  @Get()
  history(
    @Param('id', UuidPipe) id: string,
    @Query(noQuery) _query: object,
  ): Promise<SchemaVersionSummary[]> {
    return this.versions.history(id);
  }

  @Get('diff')
  diff(
    @Param('id', UuidPipe) id: string,
    @Query(diffQuery) query: z.output<typeof SchemaVersionDiffQuerySchema>,
  ): Promise<SchemaVersionDiff> {
    return this.versions.diff(id, query.from, query.to);
  }

  @Get(':num')
  get(
    @Param('id', UuidPipe) id: string,
    @Param('num') num: string,
    @Query(noQuery) _query: object,
  ): Promise<SchemaVersion> {
    return this.versions.get(id, versionNum(num));
  }
}
