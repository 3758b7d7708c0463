import { createHash } from 'node:crypto';
import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { AppError } from '../errors/app-error.js';
import { IdempotencyRepository } from './idempotency.repository.js';

const KEY = /^[\w.:-]{1,255}$/;

// Recursive, and safe: a JSON body nested deeper than MAX_JSON_DEPTH is refused by the body parser
// (common/http/json-body.ts) before this interceptor runs; form bodies are flat.
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * `Idempotency-Key` on POST: the first request with a key runs and its 2xx response is stored; the same
 * key with the same body replays that response; the same key with another body is 422
 * IDEMPOTENCY_KEY_REUSED; a request still running with the key is 409. Keys are per user.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly keys: IdempotencyRepository) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const header = request.headers['idempotency-key'];
    if (request.method !== 'POST' || header === undefined || !request.user) return next.handle();
    return from(this.handle(request, http.getResponse<FastifyReply>(), header, next));
  }

  private async handle(
    request: FastifyRequest,
    reply: FastifyReply,
    header: string | string[],
    next: CallHandler,
  ) {
    const key = Array.isArray(header) ? header[0] : header;
    if (key === undefined || !KEY.test(key)) {
      throw new AppError(
        'VALIDATION_ERROR',
        'Idempotency-Key must be 1 to 255 characters of [A-Za-z0-9_.:-].',
      );
    }
    const userId = (request.user as { id: string }).id;
    const hash = createHash('sha256')
      .update(`${request.method} ${request.url.split('?')[0] ?? ''} ${canonical(request.body)}`)
      .digest('hex');
    if (!(await this.keys.claim(userId, key, hash))) {
      const stored = await this.keys.find(userId, key);
      if (stored && stored.request_hash !== hash) throw new AppError('IDEMPOTENCY_KEY_REUSED');
      if (!stored || stored.status_code === null) {
        throw new AppError('IDEMPOTENCY_KEY_IN_PROGRESS');
      }
      void reply.status(stored.status_code).header('Idempotent-Replayed', 'true');
      return stored.response;
    }
    try {
      const response: unknown = await lastValueFrom(next.handle(), { defaultValue: undefined });
      await this.keys.complete(userId, key, reply.statusCode, response);
      return response;
    } catch (error) {
      await this.keys.release(userId, key);
      throw error;
    }
  }
}
