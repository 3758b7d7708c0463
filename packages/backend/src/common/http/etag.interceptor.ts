import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { type Observable, tap } from 'rxjs';

/** Single entities answer with `ETag: "<row_version>"`, which `If-Match` accepts back on update. */
@Injectable()
export class EtagInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      tap((data: unknown) => {
        if (data && typeof data === 'object' && 'row_version' in data && 'id' in data) {
          void context
            .switchToHttp()
            .getResponse<FastifyReply>()
            .header('ETag', `"${String(data.row_version)}"`);
        }
      }),
    );
  }
}
