import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** packages/web/dist next to this backend (dist/web-ui.js → ../../web/dist). */
export const DEFAULT_WEB_DIR = fileURLToPath(new URL('../../web/dist/', import.meta.url));

const YEAR_SECONDS = 365 * 24 * 3600;
// The UI's own policy: scripts, styles and API calls from this origin only; no framing.
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'self'; form-action 'self'";

/**
 * Serves the built web UI at /ui: a Fastify route, outside Nest and /api, with no authentication (the
 * files are public; every API call the UI makes carries its token). Files under assets/ have content
 * hashes in their names and are cached for a year; index.html is revalidated on every load, and any
 * other path under /ui is the single-page app's own route, answered with index.html.
 *
 * The web build writes a `.br` and a `.gz` next to every text file (packages/web/scripts/precompress.ts):
 * `preCompressed` sends the best one the client accepts (`Content-Encoding`), the plain file otherwise,
 * and every answer says `Vary: Accept-Encoding` so a shared cache keeps the variants apart.
 */
export async function registerWebUi(
  fastify: FastifyInstance,
  dir: string | undefined,
  log: (message: string) => void,
): Promise<void> {
  const root = dir ?? DEFAULT_WEB_DIR;
  const built = existsSync(join(root, 'index.html'));
  if (!built) log(`web UI not built (no ${join(root, 'index.html')}): /ui answers 404 until it is`);
  await fastify.register(fastifyStatic, { root, serve: false, preCompressed: true });
  const sendIndex = (reply: FastifyReply) =>
    reply
      .header('Cache-Control', 'no-cache')
      .header('Vary', 'Accept-Encoding')
      .header('Content-Security-Policy', CSP)
      .header('X-Frame-Options', 'DENY')
      .sendFile('index.html', { cacheControl: false });
  // Asset URLs are absolute (/ui/assets/…), so /ui needs no redirect to /ui/.
  const notBuilt = (reply: FastifyReply) =>
    reply.code(404).type('text/plain').send('The web UI is not built: run `pnpm --filter @aide/web build`.');
  fastify.get('/ui', (_request, reply) => (built ? sendIndex(reply) : notBuilt(reply)));
  fastify.get('/ui/*', (request, reply) => {
    const path = (request.params as { '*': string })['*'];
    if (!built) return notBuilt(reply);
    if (path.startsWith('assets/')) {
      return reply
        .header('Cache-Control', `public, max-age=${YEAR_SECONDS}, immutable`)
        .header('Vary', 'Accept-Encoding')
        .sendFile(path, { cacheControl: false });
    }
    return sendIndex(reply);
  });
}
