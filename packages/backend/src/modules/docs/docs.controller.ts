import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { buildOpenApiDocument } from '@aide/schemas/openapi';
import { Controller, Get, Header, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Public } from '../../common/auth/current-user.js';
import { AppError } from '../../common/errors/app-error.js';

const require = createRequire(import.meta.url);
const swaggerUiDir = dirname(require.resolve('swagger-ui-dist/package.json'));
// Only these files of swagger-ui-dist are served; the name is never used as a path otherwise.
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <title>AIDE Metastore API</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css" />
  <link rel="icon" href="/docs/assets/favicon-32x32.png" />
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>`;

const INIT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
  persistAuthorization: true,
});`;

/** The OpenAPI document and an interactive page over it, served without a CDN. */
@Controller()
@Public()
export class DocsController {
  private document: string | undefined;
  private readonly assets = new Map<string, Buffer>();

  @Get('openapi.json')
  @Header('Content-Type', 'application/json; charset=utf-8')
  openapi(): string {
    this.document ??= JSON.stringify(buildOpenApiDocument(process.env['npm_package_version'] ?? '0.1.0'));
    return this.document;
  }

  @Get('docs')
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header(
    'Content-Security-Policy',
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'",
  )
  page(): string {
    return PAGE;
  }

  @Get('docs/init.js')
  @Header('Content-Type', 'application/javascript; charset=utf-8')
  init(): string {
    return INIT;
  }

  @Get('docs/assets/:name')
  async asset(@Param('name') name: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<Buffer> {
    const type = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (!type) throw new AppError('NOT_FOUND');
    void reply.type(type).header('Cache-Control', 'public, max-age=86400');
    let content = this.assets.get(name);
    if (!content) {
      content = await readFile(join(swaggerUiDir, name));
      this.assets.set(name, content);
    }
    return content;
  }
}
