import { type ArgumentsHost, Catch, type ExceptionFilter, NotFoundException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './app-error.js';
import { toAppError, toEnvelope } from './error-response.js';

/** The methods a path answers to (`common/http/route-table.ts`), for the 405's `Allow`. */
export interface AllowedMethods {
  allowedMethods(url: string): string[];
}

/** Renders every error as the envelope; logs 5xx with the stack, never sends it. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  constructor(private readonly routes: AllowedMethods) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    sendError(reply, request, this.resolve(exception, request));
  }

  private resolve(exception: unknown, request: FastifyRequest): AppError {
    // Services never throw Nest's NotFoundException: it comes from the router for an unknown route.
    if (exception instanceof NotFoundException) {
      const allowed = this.routes.allowedMethods(request.url);
      if (allowed.length > 0) {
        return new AppError(
          'METHOD_NOT_ALLOWED',
          `Method ${request.method} is not allowed here.`,
          undefined,
          {
            Allow: allowed.join(', '),
          },
        );
      }
      return new AppError('NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0] ?? ''}.`);
    }
    const error = toAppError(exception);
    // An unreachable database is an outage, not a bug: one warning line per request, no stack.
    if (error.code === 'DATABASE_UNAVAILABLE')
      request.log.warn({ reason: String(exception) }, 'database unavailable');
    else if (error.status >= 500) request.log.error({ err: exception }, 'request failed');
    return error;
  }
}

export function sendError(reply: FastifyReply, request: FastifyRequest, error: AppError): void {
  if (reply.sent) return;
  if (error.headers) void reply.headers(error.headers);
  if (error.status === 401) void reply.header('WWW-Authenticate', 'Bearer');
  void reply.status(error.status).type('application/json').send(toEnvelope(error, request.id));
}
