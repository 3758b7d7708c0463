import type { FastifyAdapter } from '@nestjs/platform-fastify';
import { AppError, validationError } from '../errors/app-error.js';
import { scanJsonText } from './json-text.js';

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Every JSON body of every route goes through here, before any hook, guard, interceptor or pipe sees
 * it: bytes that are not UTF-8, nesting deeper than `MAX_JSON_DEPTH`, numbers that would not survive
 * parsing and lone surrogates are 422 `VALIDATION_ERROR` (with the paths in `details.issues`), since
 * they would otherwise be stored altered or overflow the stack of recursive code. The rest is Fastify's
 * own JSON parser (empty bodies, syntax errors, `__proto__` and `constructor.prototype` refused).
 */
export function useJsonBodyParser(adapter: FastifyAdapter, bodyLimit: number): void {
  const parseJson = adapter.getInstance().getDefaultJsonParser('error', 'error');
  adapter.useBodyParser('application/json', false, { bodyLimit }, (request, body, done) => {
    let text: string;
    try {
      text = UTF8.decode(body);
    } catch {
      done(new AppError('VALIDATION_ERROR', 'The body is not valid UTF-8.'), undefined);
      return;
    }
    const issues = scanJsonText(text);
    if (issues.length > 0) {
      done(validationError(issues, 'The request body is invalid.'), undefined);
      return;
    }
    void parseJson(request, text, done);
  });
}
