import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import { documentPath, openApiDocumentText } from '../../tools/openapi/document-file';
import { routes, type Route } from '../../lib/routes';
import { startTestApi } from '../support/local-api';

type Operation = {
  operationId: string;
  tags: string[];
  description: string;
  security: Record<string, string[]>[];
  parameters: { $ref?: string }[];
};
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

/** The security requirements of each credential: a settings route is called with a member's access token only. */
const schemesOf = (route: Route) =>
  ({
    'api-key': [['apiKey', [route.scope]]],
    'webhook-token': [
      ['webhookToken', []],
      ['webhookTokenHeader', []],
      ['webhookTokenQuery', []],
    ],
    'member-token': [['memberToken', []]],
    none: [],
  })[route.credential];

/** What a settings route's description ends with: the role it needs (docs/api.md#settings-api). */
const roleSentence = (route: Route) =>
  route.role === undefined ? 'Role: any signed-in person' : `Role: \`${route.role}\``;

test.each(routes.map((route) => [route.method, route.path, route] as const))(
  '%s %s is documented with its credential, scope or role, and Idempotency-Key',
  (method, path, route) => {
    const operation = document.paths[path]?.[method.toLowerCase()];
    expect(operation?.operationId).toBe(route.id);
    const schemes = operation?.security.flatMap((requirement) => Object.entries(requirement));
    expect(schemes).toEqual(schemesOf(route));
    const parameters = operation?.parameters.map((parameter) => parameter.$ref);
    // No settings answer is stored for replay: the key is read on the Prospect API's and the webhooks' writes only.
    const idempotent = method !== 'GET' && (route.credential === 'api-key' || route.credential === 'webhook-token');
    expect(parameters?.includes('#/components/parameters/IdempotencyKey')).toBe(idempotent);
    expect(parameters?.includes('#/components/parameters/EndpointId')).toBe(route.credential === 'webhook-token');
    if (route.credential === 'member-token') expect(operation?.description).toContain(roleSentence(route));
    expect(operation?.tags).toEqual([
      { 'api-key': 'Prospect API', 'webhook-token': 'Webhooks', 'member-token': 'Settings API', none: 'Sign-in' }[
        route.credential
      ],
    ]);
  },
);

test("the settings API's scheme is the member's access token, a JWT in the Authorization header only", () => {
  const scheme = (JSON.parse(committed) as { components: { securitySchemes: Record<string, Record<string, string>> } })
    .components.securitySchemes.memberToken;
  expect(scheme).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  expect(scheme?.description).toContain('POST /session');
});

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
