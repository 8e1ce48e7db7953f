import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { GatewayReply } from '../local/api-gateway';

/**
 * What the local server shows integrators besides the API: `GET /openapi.json` (the document of
 * the running code) and `GET /docs`, Swagger UI over it, served from node_modules (no CDN, no call
 * out: the online validator is off).
 */
const swaggerUiDirectory = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const assets: Record<string, { file: string; contentType: string }> = {
  '/docs/swagger-ui.css': { file: 'swagger-ui.css', contentType: 'text/css; charset=utf-8' },
  '/docs/swagger-ui-bundle.js': { file: 'swagger-ui-bundle.js', contentType: 'text/javascript; charset=utf-8' },
  '/docs/favicon-32x32.png': { file: 'favicon-32x32.png', contentType: 'image/png' },
};

const referencePage = `<!doctype html>
<html lang="fr">
  <head>
    <meta charset="utf-8" />
    <title>Référence de l'API – CRM</title>
    <link rel="stylesheet" href="/docs/swagger-ui.css" />
    <link rel="icon" type="image/png" href="/docs/favicon-32x32.png" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/docs/swagger-ui-bundle.js"></script>
    <script>
      window.ui = SwaggerUIBundle({
        url: '/openapi.json',
        dom_id: '#swagger-ui',
        deepLinking: true,
        displayRequestDuration: true,
        validatorUrl: null,
      });
    </script>
  </body>
</html>
`;

const reply = (contentType: string, body: string | Buffer): GatewayReply => ({
  statusCode: 200,
  headers: { 'Content-Type': [contentType] },
  body: Buffer.isBuffer(body) ? body : Buffer.from(body),
});

let documentText: Promise<string> | undefined;

/** The page for a GET on this path, or undefined when the path is the API's. */
export async function localReferencePage(path: string): Promise<GatewayReply | undefined> {
  if (path === '/openapi.json') {
    // Built on first use only: `npm start` and the tests that never ask pay nothing for it.
    documentText ??= import('./document-file').then((module) => module.openApiDocumentText());
    return reply('application/json; charset=utf-8', await documentText);
  }
  if (path === '/docs' || path === '/docs/') return reply('text/html; charset=utf-8', referencePage);
  const asset = assets[path];
  if (asset === undefined) return undefined;
  return reply(asset.contentType, await readFile(join(swaggerUiDirectory, asset.file)));
}
