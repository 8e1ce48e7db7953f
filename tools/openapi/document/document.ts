import type { $ZodType } from 'zod/v4/core';
import { maxIdempotencyKeyLength } from '../../../lib/http/middleware/idempotency';
import { defaultPageLimit, maxPageLimit } from '../../../lib/http/query-parameters';
import { maxEmailLength } from '../../../lib/domain/model';
import { leadFieldDefinitions } from '../../../lib/domain/lead/lead';
import { requestLimit, stageChangeLimit } from '../../../lib/storage/rate-limit';
import { allScopes, routes, type Route } from '../../../lib/routes';
import { exampleCursor, exampleIds, exampleMessages } from './examples';
import { componentSchemas, type JsonSchema } from './json-schema';
import {
  operations,
  type ErrorCase,
  type ErrorExample,
  type OperationText,
  type QueryParameterName,
  type SuccessCase,
} from './operations';
import { emailPattern, notBlank, pageLimitPattern, uuidPattern } from './patterns';
import { prospectListParameters } from './prospect-list-parameters';
import { requestComponents } from './request-schemas';
import { leadErrorSchema, responseSchemas, standardErrorSchema } from './response-schemas';

export type OpenApiDocument = { openapi: string; paths: Record<string, Record<string, JsonSchema>> } & JsonSchema;

/**
 * On the Prospect API and the recruitment webhook the status gives the code
 * (docs/api.md#prospect-api-errors, docs/api.md#recruitment-webhook-errors).
 */
const standardCodes: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  422: 'unprocessable',
  429: 'rate_limited',
  500: 'internal',
};

const ref = (section: string, name: string) => ({ $ref: `#/components/${section}/${name}` });

const pathParameters: Record<string, JsonSchema> = {
  prospect_id: {
    description: "The prospect's id (UUID). Any other value, or another workspace's prospect, is a 404.",
    schema: { type: 'string' },
    example: exampleIds.prospect,
  },
  candidate_id: {
    description:
      "The candidate's id (UUID, the recruitment webhook's `talent_id`). Any other value, or another workspace's " +
      'candidate, is a 404.',
    schema: { type: 'string' },
    example: exampleIds.talent,
  },
  tag_id: {
    description: "The tag's id (UUID). Any other value, or another workspace's tag, is a 404.",
    schema: { type: 'string' },
    example: exampleIds.vipTag,
  },
  key_id: {
    description: "The API key's id (UUID). Any other value, or another workspace's key, is a 404.",
    schema: { type: 'string' },
    example: exampleIds.apiKey,
  },
  field_key: {
    description:
      "The custom field's key (`GET …/fields`). A deleted field's, another workspace's, or a value that cannot be a " +
      'key (upper case, accents, over 40 characters…): 404.',
    schema: { type: 'string' },
    example: 'societe',
  },
  tag: {
    description: 'Id or exact name (ignoring case) of an existing tag, percent-encoded.',
    schema: { type: 'string' },
    example: 'VIP',
  },
  call_id: {
    description: "The call's id (UUID), from the journal. Any other value, or another workspace's call: 404.",
    schema: { type: 'string' },
    example: '0193a1b2-7c3d-7e4f-8a5b-6c7d8e9f0a1b',
  },
  subscription_id: {
    description: "The subscription's id (UUID). Any other value, or another workspace's subscription: 404.",
    schema: { type: 'string' },
    example: '0193a0f1-2b3c-7d4e-8f5a-6b7c8d9e0f1a',
  },
  delivery_id: {
    description: "The delivery's id (UUID), from the subscription's deliveries. Any other value: 404.",
    schema: { type: 'string' },
    example: '0193a1c4-5d6e-7f8a-9b0c-1d2e3f4a5b6c',
  },
  workspace_id: {
    description:
      "The workspace's id (UUID), one the signed-in person is a member of (`GET /workspaces`). Any other value: 404.",
    schema: { type: 'string' },
    example: exampleIds.workspace,
  },
  entry_id: {
    description: "The change-log entry's id (UUID). Any other value, or another workspace's entry, is a 404.",
    schema: { type: 'string' },
    example: exampleIds.stageChange,
  },
  member_id: {
    description: "The member's id (UUID) in this workspace (`GET …/members`). Any other value: 404.",
    schema: { type: 'string' },
    example: exampleIds.invitedMember,
  },
};

const parameters: Record<string, JsonSchema> = {
  EndpointId: {
    name: 'endpoint_id',
    in: 'query',
    required: true,
    description:
      'Designates the workspace; not a secret (the token is). Absent: 404 on the lead webhook, 400 on the ' +
      'recruitment webhook. Not a UUID: 400. Unknown: 401 on the lead webhook, 404 on the recruitment webhook.',
    schema: { type: 'string', format: 'uuid', pattern: uuidPattern },
    example: exampleIds.endpoint,
  },
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Optional, any text unique to this request (a UUID is a good choice). Kept 24 hours per workspace and ' +
      'credential; it stands for one request: its method, its concrete path (prospect id, tag) and its body. The ' +
      'same request under the same key replays the first answer without writing again; any other request under ' +
      'it (another body, route, prospect or tag), or the same one while the first call is still running, is ' +
      'refused (see the responses); it never replays the answer given for another resource. ' +
      `Longer than ${maxIdempotencyKeyLength} characters: 400. Empty: as if absent.`,
    schema: { type: 'string', maxLength: maxIdempotencyKeyLength },
    example: '0f8fad5b-d9cb-469f-a165-70867728950e',
  },
};

const { maxLengths } = leadFieldDefinitions;

/** One of the three contact parameters of GET /prospects, the look-up's: read as the lead webhook reads the field. */
const contactParameter = (name: 'email' | 'phone' | 'social_url', description: string, example: string) => ({
  name,
  in: 'query',
  required: false,
  description:
    `${description} The look-up takes one of \`email\`, \`phone\`, \`social_url\` (two or three: 400), once (twice: ` +
    '400), and no other parameter (400 naming it); without any of them, the request is the list. Percent-encoded ' +
    '(`+` as `%2B`: a raw `+` in a query string reads as a space). Trimmed; blank, or a value the lead webhook ' +
    'would not keep, is a 400.',
  schema: {
    type: 'string',
    maxLength: maxLengths[name],
    pattern: name === 'email' ? emailPattern : notBlank,
    ...(name === 'email' ? { format: 'idn-email' } : {}),
  },
  example,
});

/** The query parameters of the read routes (docs/api.md#read-routes), the list of prospects' included. */
const queryParameters: Record<QueryParameterName, JsonSchema> = {
  Limit: {
    name: 'limit',
    in: 'query',
    required: false,
    description:
      `Items per page, an integer from 1 to ${maxPageLimit} in one to three decimal digits (\`+5\`, \`5.0\`, ` +
      `\`1e1\`, \`0\`: 400). Default ${defaultPageLimit}. Given twice: 400.`,
    schema: { type: 'string', pattern: pageLimitPattern, default: String(defaultPageLimit) },
    example: '20',
  },
  Cursor: {
    name: 'cursor',
    in: 'query',
    required: false,
    description:
      'The `next_cursor` of the previous page, passed back unchanged; absent for the first page. Opaque, and bound to ' +
      "its list: the same route, the same prospect, the key's workspace. Any other value (empty, altered, or another " +
      "list's, prospect's or workspace's cursor): 400. Given twice: 400.",
    schema: { type: 'string' },
    example: exampleCursor,
  },
  Failed: {
    name: 'failed',
    in: 'query',
    required: false,
    description: '`true`: only the calls answered 400 or more; `false` or absent: every call. Anything else: 400.',
    schema: { type: 'string', enum: ['true', 'false'] },
    example: 'true',
  },
  DeliveryStatus: {
    name: 'status',
    in: 'query',
    required: false,
    description: 'Only the deliveries in this state; absent: all. Anything else: 400.',
    schema: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
    example: 'failed',
  },
  CandidateEmail: {
    name: 'email',
    in: 'query',
    required: true,
    description:
      "The person's address, as the recruitment webhook reads it: matched ignoring case and Unicode normalization " +
      '(`HÉLÈNE@EXEMPLE.FR` is `hélène@exemple.fr`); trimmed. Absent, blank, given twice or not an address: 400 naming ' +
      '`email`; any other parameter: 400 naming it. Percent-encoded (`+` as `%2B`).',
    schema: { type: 'string', maxLength: maxEmailLength, pattern: emailPattern, format: 'idn-email' },
    example: 'lea.martin@exemple.test',
  },
  Email: contactParameter(
    'email',
    `An address, at most ${maxEmailLength} characters: matches the prospect's e-mail ignoring case and Unicode ` +
      'normalization (`HÉLÈNE@EXEMPLE.FR` is `hélène@exemple.fr`).',
    'nina.roux@exemple.test',
  ),
  Phone: contactParameter(
    'phone',
    `At most ${maxLengths.phone} characters: matches the prospect's phone exactly as it was sent (\`+33612345678\` ` +
      'is not `06 12 34 56 78`).',
    '+33698765432',
  ),
  SocialUrl: contactParameter(
    'social_url',
    `At most ${maxLengths.social_url} characters: matches the prospect's \`social_url\` exactly.`,
    'https://www.linkedin.com/in/nina-roux',
  ),
  ...prospectListParameters,
};

const securitySchemes: Record<string, JsonSchema> = {
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    description:
      `Prospect API: \`Authorization: Bearer <API key>\`, and only there (a key in the URL is refused). One key ` +
      `per integration, revocable; scopes: ${allScopes.map((scope) => `\`${scope}\``).join(', ')}, or \`*\` for all. ` +
      'Each operation lists the scope it needs.',
  },
  memberToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      'Settings API: `Authorization: Bearer <access token>`, the `access_token` a member is issued by ' +
      '`POST /session` (an hour; `POST /session/refresh` renews it), and only there: never in the URL (refused), ' +
      'and refused on the Prospect API and the webhooks. Each operation says the role it needs in the workspace.',
  },
  webhookToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'Webhooks, best place for the token: `Authorization: Bearer <webhook token>`.',
  },
  webhookTokenHeader: {
    type: 'apiKey',
    in: 'header',
    name: 'x-webhook-token',
    description: 'Webhooks, second place: read when no `Authorization: Bearer` carries a token.',
  },
  webhookTokenQuery: {
    type: 'apiKey',
    in: 'query',
    name: 'token',
    description: 'Webhooks, last resort for tools that cannot set a header: read only when no header carries a token.',
  },
};

const integerHeader = (description: string, required: boolean): JsonSchema => ({
  description,
  required,
  schema: { type: 'integer', minimum: 0 },
});

const requestIdHeader: JsonSchema = {
  description: "The request's id (API Gateway's), also written in the logs: quote it when reporting a problem.",
  required: true,
  schema: { type: 'string' },
};

const rateLimitHeaders: Record<string, JsonSchema> = {
  'RateLimit-Limit': integerHeader(
    `Requests allowed in the current minute for this key: ${requestLimit}, or ${stageChangeLimit} for a PATCH ` +
      'carrying `stage` when that limit is the tighter.',
    true,
  ),
  'RateLimit-Remaining': integerHeader('Requests left in the current minute, for the same limit.', true),
  'RateLimit-Reset': integerHeader('Seconds until the current one-minute window ends.', true),
};

/** A settings route under a workspace, limited per member there (docs/api.md#settings-api). */
const underWorkspace = (route: Route) =>
  route.credential === 'member-token' && route.path.startsWith('/workspaces/{workspace_id}');

const memberRateLimitHeaders = (required: boolean): Record<string, JsonSchema> => ({
  'RateLimit-Limit': integerHeader(
    `Requests allowed in the current minute for this member in this workspace: ${requestLimit}.`,
    required,
  ),
  'RateLimit-Remaining': integerHeader('Requests left in the current minute.', required),
  'RateLimit-Reset': integerHeader('Seconds until the current one-minute window ends.', required),
});

function responseHeaders(route: Route, status: number, retryAfter: ErrorCase['retryAfter']): JsonSchema {
  const headers: JsonSchema = { 'x-request-id': requestIdHeader };
  // Past the authorizer every Prospect API answer carries the limits; a 401 and a 500 may be answered before.
  if (route.credential === 'api-key' && status !== 401 && status !== 500) Object.assign(headers, rateLimitHeaders);
  // Past the member's gate too: a 404 for the workspace comes before it, one for a target after it.
  if (underWorkspace(route) && status !== 401 && status !== 500) {
    Object.assign(headers, memberRateLimitHeaders(status !== 404));
  }
  if (retryAfter !== undefined) {
    headers['Retry-After'] = integerHeader(
      retryAfter === 'always'
        ? 'Seconds to wait before retrying.'
        : 'Seconds to wait before retrying (1), when a call with the same `Idempotency-Key` is still running.',
      retryAfter === 'always',
    );
  }
  return headers;
}

function errorComponentName(route: Route, code: string): string {
  return route.errorShape === 'lead' ? `LeadError.${code}` : `Error.${code}`;
}

function codesOf(route: Route, status: number, error: ErrorCase): string[] {
  if (route.errorShape === 'standard') {
    const code = standardCodes[status];
    if (code === undefined) throw new Error(`No error code for status ${status}`);
    return [code];
  }
  const codes = error.examples.map((example) => example.code);
  if (codes.some((code) => code === undefined)) throw new Error(`Lead webhook example without code (${status})`);
  return [...new Set(codes as string[])];
}

function errorExampleValue(route: Route, status: number, example: ErrorExample): unknown {
  if (route.errorShape === 'lead') return { error: example.code, message: example.message };
  const details = example.details === undefined ? {} : { details: example.details };
  return { error: { code: standardCodes[status], message: example.message, ...details } };
}

function errorResponse(route: Route, status: number, error: ErrorCase): JsonSchema {
  const schemas = codesOf(route, status, error).map((code) => ref('schemas', errorComponentName(route, code)));
  const examples = Object.fromEntries(
    error.examples.map((example, index) => [
      `example${index + 1}`,
      { summary: example.summary, value: errorExampleValue(route, status, example) },
    ]),
  );
  return {
    description: error.description,
    headers: responseHeaders(route, status, error.retryAfter),
    content: { 'application/json': { schema: schemas.length === 1 ? schemas[0] : { oneOf: schemas }, examples } },
  };
}

function successResponse(route: Route, status: number, success: SuccessCase): JsonSchema {
  const headers = responseHeaders(route, status, undefined);
  if (success.schema === undefined) return { description: success.description, headers };
  return {
    description: success.description,
    headers,
    content: { 'application/json': { schema: ref('schemas', success.schema), examples: success.examples } },
  };
}

const internalError: ErrorCase = {
  description: 'Internal error: retry later. The message says nothing more; quote `x-request-id` to support.',
  examples: [{ summary: 'Internal error', message: exampleMessages.internal }],
};

/**
 * What every route of the settings API answers whatever its use case, in the check order of docs/api.md#settings-api:
 * the token (401), the workspace (404), the role (403), the member's limit (429), the body (400); and 500.
 */
function credentialErrors(route: Route, text: OperationText): Record<number, ErrorCase> {
  const errors: Record<number, ErrorCase> = { 500: internalError };
  if (text.requestBody !== undefined) {
    errors[400] = {
      description:
        'A body that is not a JSON object, a field this operation does not know, or a field of the wrong type ' +
        '(`details.field` names it).',
      examples: [
        {
          summary: 'Unknown field',
          message: exampleMessages.unknownSessionField,
          details: { field: 'remember', message: exampleMessages.unknownSessionField },
        },
      ],
    };
  }
  if (route.credential === 'none') return errors;
  errors[401] = {
    description:
      'Access token missing, invalid or expired, issued before a sign-out (`DELETE /session`), or a credential in ' +
      'the query string: sign in again, or renew it (`POST /session/refresh`).',
    examples: [{ summary: 'No valid session', message: exampleMessages.sessionUnauthorized }],
  };
  if (underWorkspace(route)) {
    errors[404] = {
      description:
        'A workspace the person is not (or no longer) a member of, or a `workspace_id` that is not a UUID: the ' +
        'same answer as an unknown one.',
      examples: [{ summary: 'Not a member', message: exampleMessages.workspaceNotFound }],
    };
    if (route.role === 'admin') {
      errors[403] = {
        description: "The person's role in this workspace is `member`: this operation is for admins.",
        examples: [{ summary: 'Admins only', message: exampleMessages.roleForbidden }],
      };
    }
    errors[429] = {
      description:
        `More than ${requestLimit} requests in the current minute for this member in this workspace. Retry after ` +
        '`Retry-After` seconds.',
      examples: [{ summary: 'Limit reached', message: exampleMessages.memberRateLimited }],
      retryAfter: 'always',
    };
  }
  return errors;
}

/**
 * The route's error answers: its operation's, and on the settings API what every such route answers, the
 * operation's cases added to the same status after the common ones.
 */
function errorsOf(route: Route, text: OperationText): Record<number, ErrorCase> {
  if (route.credential === 'api-key' || route.credential === 'webhook-token') return text.errors;
  const errors = credentialErrors(route, text);
  for (const [status, own] of Object.entries(text.errors)) {
    const common = errors[Number(status)];
    errors[Number(status)] =
      common === undefined
        ? own
        : {
            description: `${common.description} ${own.description}`,
            examples: [...common.examples, ...own.examples],
            retryAfter: own.retryAfter ?? common.retryAfter,
          };
  }
  return errors;
}

/**
 * Every handler reads its body as JSON whatever the Content-Type (none included), and the webhooks
 * read a form too: the wildcard media range says so, and `text/plain` (what form tools send raw
 * JSON as) is named for the tools that do not match wildcards.
 */
function requestBody(text: NonNullable<OperationText['requestBody']>): JsonSchema {
  const schema = ref('schemas', text.schema);
  const webhook = text.formEncoding && {
    'text/plain': { schema },
    'application/x-www-form-urlencoded': { schema, encoding: text.formEncoding },
  };
  const reading = text.formEncoding
    ? 'JSON whatever the `Content-Type` (`text/plain`, any other, or none), except a form ' +
      '(`application/x-www-form-urlencoded`, read as the same flat object).'
    : 'JSON whatever the `Content-Type` (any, or none).';
  return {
    required: true,
    description: `${text.description} ${reading}`,
    content: { 'application/json': { schema, examples: text.examples }, ...webhook, '*/*': { schema } },
  };
}

function security(route: Route): JsonSchema[] {
  switch (route.credential) {
    case 'webhook-token':
      return [{ webhookToken: [] }, { webhookTokenHeader: [] }, { webhookTokenQuery: [] }];
    case 'member-token':
      return [{ memberToken: [] }];
    case 'none':
      return [];
    case 'api-key':
      return [{ apiKey: route.scope === undefined ? [] : [route.scope] }];
  }
}

const tagOf: Record<Route['credential'], string> = {
  'api-key': 'Prospect API',
  'webhook-token': 'Webhooks',
  'member-token': 'Settings API',
  none: 'Sign-in',
};

/** What the operation's description ends with: the scope of a key, or the role of a signed-in person. */
function requirement(route: Route): string {
  if (route.scope !== undefined) return `\n\nScope: \`${route.scope}\`.`;
  if (route.credential !== 'member-token') return '';
  if (route.role === 'admin') return '\n\nRole: `admin` of the workspace.';
  if (route.role === 'member') return '\n\nRole: `member` of the workspace (an `admin` too).';
  return '\n\nRole: any signed-in person, whatever their workspaces.';
}

/** The Idempotency-Key is read on the Prospect API's and the webhooks' writes; no settings answer is replayed. */
const readsIdempotencyKey = (route: Route) =>
  route.method !== 'GET' && (route.credential === 'api-key' || route.credential === 'webhook-token');

function operation(route: Route): JsonSchema {
  const text = operations[route.id];
  if (text === undefined) throw new Error(`No description for route ${route.id}`);
  const names = [...route.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string);
  const path = names.map((name) => {
    const parameter = pathParameters[name];
    if (parameter === undefined) throw new Error(`No description for path parameter ${name}`);
    return { name, in: 'path', required: true, ...parameter };
  });
  const query = route.credential === 'webhook-token' ? [ref('parameters', 'EndpointId')] : [];
  const idempotency = readsIdempotencyKey(route) ? [ref('parameters', 'IdempotencyKey')] : [];
  const read = (text.query ?? []).map((name) => ref('parameters', name));
  const responses: [number, JsonSchema][] = [
    ...Object.entries(text.success).map(([status, success]): [number, JsonSchema] => [
      Number(status),
      successResponse(route, Number(status), success),
    ]),
    ...Object.entries(errorsOf(route, text)).map(([status, error]): [number, JsonSchema] => [
      Number(status),
      errorResponse(route, Number(status), error),
    ]),
  ];
  return {
    operationId: route.id,
    tags: [tagOf[route.credential]],
    summary: text.summary,
    description: text.description + requirement(route),
    security: security(route),
    parameters: [...path, ...query, ...read, ...idempotency],
    ...(text.requestBody ? { requestBody: requestBody(text.requestBody) } : {}),
    responses: Object.fromEntries(responses.sort(([a], [b]) => a - b).map(([status, answer]) => [status, answer])),
  };
}

function errorSchemas(): Record<string, JsonSchema> {
  const schemas: Record<string, $ZodType> = {};
  for (const route of routes) {
    const text = operations[route.id];
    for (const [status, error] of Object.entries(text === undefined ? {} : errorsOf(route, text))) {
      for (const code of codesOf(route, Number(status), error)) {
        schemas[errorComponentName(route, code)] ??=
          route.errorShape === 'lead' ? leadErrorSchema(code) : standardErrorSchema(code);
      }
    }
  }
  return componentSchemas('output', schemas);
}

const overview = `Back end of a CRM for French-speaking sales and recruitment teams, one workspace ("espace") at a time.

- **Prospect API** (API key): pipelines, stages and tags; a prospect, found by id or by contact, its notes and its change
  log; the lists of prospects, filtered and sorted; its stage, setter, closer and next follow-up; notes; tags. Every change is logged with the key and the values
  before and after, and can be undone in the application.
- **Webhooks** (webhook token): leads from form tools, and job applications.
- **Settings API** (a member's access token, from **Sign-in**: \`POST /session\`): the person's workspaces and session,
  and each workspace's settings, by role (\`admin\` or \`member\`).

**Errors.** Prospect API and recruitment webhook: \`{ "error": { "code", "message", "details"? } }\`; lead webhook:
\`{ "error", "message" }\`. Messages and warnings are French sentences meant for people.

**Rate limits.** ${requestLimit} requests a minute per API key, of which ${stageChangeLimit} stage changes; every Prospect API
answer past authentication carries \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\`, a 429 also \`Retry-After\`.
On the settings API, ${requestLimit} requests a minute per member and workspace, with the same headers under a workspace.

**Validation.** The request schemas say what the service accepts, rules checked in code included: each is a JSON Schema
keyword, a pattern where no other says it (ECMA-262, with Unicode). \`format\` is an annotation, as OpenAPI 3.1 makes it: a
validator that asserts it may refuse white space around an address or id, which the service trims away.

**Pagination.** Lists answer newest first (the prospects' in the order \`sort\` asks), \`limit\` items a page (1 to 100,
default 50), and a \`next_cursor\` to pass back as \`cursor\`, null when no item follows.

**Retries.** Every POST, PATCH and DELETE of the Prospect API and the webhooks accepts an \`Idempotency-Key\` header: a retried delivery is answered once.

**Support.** Every answer carries \`x-request-id\`, also in the logs: quote it when reporting a problem.`;

/** The OpenAPI 3.1 description of the API, built from the route list and the schemas the handlers use. */
export function openApiDocument(version: string): OpenApiDocument {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation(route) };
  }
  const unknown = Object.keys(operations).filter((id) => !routes.some((route) => route.id === id));
  if (unknown.length > 0) throw new Error(`Descriptions of routes that do not exist: ${unknown.join(', ')}`);
  return {
    openapi: '3.1.0',
    info: {
      title: 'CRM ingestion service',
      version,
      summary: 'Lead and recruitment webhooks, the Prospect API, and the settings API.',
      description: overview,
    },
    servers: [
      { url: 'http://127.0.0.1:3000', description: 'Local API (`npm start`)' },
      {
        url: 'https://{apiId}.execute-api.{region}.amazonaws.com/{stage}',
        description: 'Deployed stage (`ApiUrl` output of the stack)',
        variables: {
          apiId: { default: 'abcde12345', description: 'Id of the REST API' },
          region: { default: 'eu-west-3' },
          stage: { default: 'dev' },
        },
      },
    ],
    tags: [
      {
        name: 'Prospect API',
        description: 'Read pipelines, tags, prospects, their notes and change log; change prospects. API key.',
      },
      { name: 'Webhooks', description: 'Receive leads and applications from form tools. Webhook token.' },
      {
        name: 'Sign-in',
        description: 'Open, renew and recover a session: no credential, the request carries its own proof.',
      },
      {
        name: 'Settings API',
        description: "A member's own session and workspaces, and each workspace's settings. Access token.",
      },
    ],
    paths,
    components: {
      schemas: {
        ...requestComponents(),
        ...componentSchemas('output', responseSchemas),
        ...errorSchemas(),
      },
      parameters: { ...parameters, ...queryParameters },
      securitySchemes,
    },
  };
}
