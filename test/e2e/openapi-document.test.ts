import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import { documentPath, openApiDocumentText } from '../../tools/openapi/document-file';
import { routes } from '../../lib/routes';
import { startTestApi } from '../support/local-api';

type Operation = { operationId: string; security: Record<string, string[]>[]; parameters: { $ref?: string }[] };
type Document = { paths: Record<string, Record<string, Operation>> };

const committed = readFileSync(documentPath, 'utf8');
const document = JSON.parse(committed) as Document;
const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

test('docs/openapi.json is what `npm run openapi` generates from the code', () => {
  const upToDate = committed === openApiDocumentText();
  expect(upToDate ? 'up to date' : 'out of date: run `npm run openapi`').toBe('up to date');
});

test('it is a valid OpenAPI 3.1 document (official schema)', async () => {
  const validator = new Validator();
  const result = await validator.validate(JSON.parse(committed) as Record<string, unknown>);
  expect(result).toEqual({ valid: true });
  expect(validator.version).toBe('3.1');
});

test('Redocly’s recommended rules find nothing, offline', async () => {
  const lint = await promisify(execFile)(
    process.execPath,
    [
      root('node_modules/@redocly/cli/bin/cli.js'),
      'lint',
      '--config',
      root('tools/openapi/redocly.yaml'),
      documentPath,
    ],
    { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
  );
  expect(lint.stderr + lint.stdout).toContain('Your API description is valid');
});

test.each(routes.map((route) => [route.method, route.path, route] as const))(
  '%s %s is documented with its credential, scope and Idempotency-Key',
  (method, path, route) => {
    const operation = document.paths[path]?.[method.toLowerCase()];
    expect(operation?.operationId).toBe(route.id);
    const schemes = operation?.security.flatMap((requirement) => Object.entries(requirement));
    expect(schemes).toEqual(
      route.credential === 'api-key'
        ? [['apiKey', [route.scope]]]
        : [
            ['webhookToken', []],
            ['webhookTokenHeader', []],
            ['webhookTokenQuery', []],
          ],
    );
    const parameters = operation?.parameters.map((parameter) => parameter.$ref);
    expect(parameters?.includes('#/components/parameters/IdempotencyKey')).toBe(method !== 'GET');
    expect(parameters?.includes('#/components/parameters/EndpointId')).toBe(route.credential === 'webhook-token');
  },
);

test('the local server serves it at GET /openapi.json, without any credential', async () => {
  const api = await startTestApi();
  try {
    const response = await api.request('GET', '/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.body).toEqual(document);
  } finally {
    await api.close();
  }
});
