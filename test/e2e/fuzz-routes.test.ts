import fc from 'fast-check';
import type { SeedOutput } from '../../tools/seed/seed';
import { routes, type Route } from '../../lib/routes';
import {
  fuzzAuthorization,
  fuzzBody,
  fuzzHeaders,
  fuzzQuery,
  fuzzSegment,
  type FuzzBody,
} from '../support/fuzz-inputs';
import { startTestApi, type TestApi } from '../support/local-api';
import { rawRequest } from '../support/raw-http';
import { internalNames } from '../support/route-calls';
import { seedTestWorkspace } from '../support/seed';

/**
 * Input fuzzing on every route through the local API (docs/reliability.md): generated bodies,
 * headers, paths and query strings never get a 5xx, and no answer shows a stack trace or an
 * internal name that the request did not carry itself. Answers are JSON, errors in the route's
 * shape. FUZZ_RUNS sets the number of requests per route (default 60); FUZZ_SEED replays one. The
 * suite's default seed is fixed, so CI is reproducible; a run with FUZZ_RUNS explores a new one.
 */

const runsPerRoute = Number(process.env.FUZZ_RUNS ?? 60);
const defaultSeed = process.env.FUZZ_RUNS === undefined ? 20_261_122 : Date.now() % 1_000_000_000;
const seed = Number(process.env.FUZZ_SEED ?? defaultSeed);

/** The fields each route reads, so that generated bodies often get past the first checks. */
const fieldsOf: Record<string, readonly string[]> = {
  listPipelines: [],
  listAssignableMembers: [],
  listCustomFields: [],
  updateProspect: ['stage', 'setter_id', 'closer_id', 'follow_up_at'],
  addNote: ['content', 'date'],
  addTag: ['tag'],
  removeTag: [],
  ingestLead: [
    'first_name',
    'last_name',
    'email',
    'phone',
    'social_url',
    'source',
    'pipeline',
    'stage',
    'tag_ids',
    'tags',
  ],
  recruitment: [
    'email',
    'name',
    'first_name',
    'last_name',
    'phone',
    'position',
    'pipeline',
    'pipeline_id',
    'source',
    'answers',
  ],
};

/** A body each route accepts: the fuzzer replaces or adds a few fields, to get past the first checks. */
const validBodyOf: Record<string, Record<string, unknown>> = {
  updateProspect: { stage: 'Relance', follow_up_at: '2026-12-01T09:30:00+01:00' },
  addNote: { content: 'Rappeler mardi' },
  addTag: { tag: 'VIP' },
  ingestLead: { email: 'fuzz@exemple.test', first_name: 'Léa' },
  recruitment: { email: 'fuzz@exemple.test', name: 'Camille Dupont', answers: { Disponible: 'oui' } },
};

let api: TestApi;
let ws: SeedOutput;
let offset = 0;

beforeAll(async () => {
  ws = await seedTestWorkspace();
  // Each call a minute later: the fuzzing keys never reach their rate limits, so every request reaches its handler.
  api = await startTestApi({ clock: () => new Date(Date.now() + (offset += 61_000)) });
});
afterAll(() => api.close());

type FuzzRequest = {
  segments: string[];
  query: string;
  body: FuzzBody;
  headers: Record<string, string>;
  authorization: string | undefined;
  validCredential: boolean;
};

function requestArbitrary(route: Route): fc.Arbitrary<FuzzRequest> {
  const parameters = route.path.split('/').filter((part) => part.startsWith('{')).length;
  return fc.record({
    segments: fc.array(fc.oneof({ weight: 2, arbitrary: fc.constant('') }, { weight: 3, arbitrary: fuzzSegment }), {
      minLength: parameters,
      maxLength: parameters,
    }),
    query: fc.oneof({ weight: 3, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fuzzQuery }),
    body: fuzzBody(fieldsOf[route.id] ?? [], validBodyOf[route.id] ?? {}),
    headers: fuzzHeaders,
    authorization: fc.option(fuzzAuthorization, { nil: undefined }),
    validCredential: fc.oneof(
      { weight: 4, arbitrary: fc.constant(true) },
      { weight: 1, arbitrary: fc.constant(false) },
    ),
  });
}

/** The path with each `{parameter}` given a generated segment, or (when empty) a real id of the workspace. */
function targetOf(route: Route, request: FuzzRequest): string {
  let index = 0;
  const path = route.path.replace(/\{[^}]+\}/g, (parameter) => {
    const segment = request.segments[index++] ?? '';
    if (segment !== '') return segment;
    return parameter === '{tag}' ? 'VIP' : (ws.prospects.lead as string);
  });
  const webhook = route.credential === 'webhook-token';
  const query = [webhook && request.validCredential ? `endpoint_id=${ws.webhook?.endpoint_id}` : '', request.query]
    .filter((part) => part !== '')
    .join('&');
  return query === '' ? path : `${path}?${query}`;
}

function headersOf(route: Route, request: FuzzRequest): Record<string, string> {
  const secret = route.credential === 'webhook-token' ? ws.webhook?.token : ws.api_keys.admin?.secret;
  const authorization = request.validCredential ? `Bearer ${secret}` : request.authorization;
  return {
    ...request.headers,
    ...(request.body.contentType ? { 'Content-Type': request.body.contentType } : {}),
    ...(authorization === undefined ? {} : { Authorization: authorization }),
  };
}

const decoded = (value: string): string => {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
};

/** Everything the request carried, raw and decoded: an answer may quote it back. */
function requestText(target: string, headers: Record<string, string>, body: FuzzBody['body']): string {
  const bodyText = body instanceof Uint8Array ? new TextDecoder().decode(body) : (body ?? '');
  const raw = [target, ...Object.entries(headers).flat(), bodyText];
  return [...raw, ...raw.map(decoded), ...target.split(/[/?&=]/).map(decoded)].join('\n');
}

function isErrorBody(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const { error, message } = body as { error?: unknown; message?: unknown };
  if (typeof error === 'string') return typeof message === 'string';
  const inner = error as { code?: unknown; message?: unknown } | undefined;
  return typeof inner?.code === 'string' && typeof inner.message === 'string';
}

async function send(route: Route, request: FuzzRequest) {
  const target = targetOf(route, request);
  const headers = headersOf(route, request);
  const body = route.method === 'GET' ? undefined : request.body.body;
  const answer = await rawRequest(api.url, route.method, target, headers, body);
  return { ...answer, sent: requestText(target, headers, body) };
}

function expectSafeAnswer(answer: { status: number; text: string; sent: string }): void {
  expect(answer.status).toBeLessThan(500);
  const body: unknown = JSON.parse(answer.text);
  if (answer.status >= 400) expect(isErrorBody(body)).toBe(true);
  const leaked = [...answer.text.matchAll(new RegExp(internalNames.source, 'g'))]
    .map(([word]) => word)
    .filter((word) => !answer.sent.includes(word));
  expect(leaked).toEqual([]);
}

describe.each(routes.map((route) => [`${route.method} ${route.path}`, route] as const))(
  'fuzzing %s',
  (_name, route) => {
    it(`never answers 5xx nor shows internals (${runsPerRoute} requests, seed ${seed})`, async () => {
      await fc.assert(
        fc.asyncProperty(requestArbitrary(route), async (request) => expectSafeAnswer(await send(route, request))),
        { numRuns: runsPerRoute, seed },
      );
    });
  },
);

describe('hostile requests of extreme size, on every route', () => {
  const extremes: [string, (route: Route) => FuzzRequest][] = [
    ['a body over the 256 KB webhook limit', () => aRequest({ body: `{"content":"${'é'.repeat(200_000)}"}` })],
    ['a body over API Gateway’s 10 MB quota', () => aRequest({ body: 'x'.repeat(10 * 1024 * 1024 + 1) })],
    ['JSON nested 200 000 deep', () => aRequest({ body: `{"a":${'['.repeat(200_000)}${']'.repeat(200_000)}}` })],
    // Past about 10 KB of URL API Gateway (and the local server's HTTP parser) answer by themselves.
    [
      'an 8 000-character path segment',
      (route) => aRequest({ segments: route.path.includes('{') ? ['a'.repeat(8_000)] : [] }),
    ],
    ['an Idempotency-Key of 10 000 characters', () => aRequest({ headers: { 'Idempotency-Key': 'k'.repeat(10_000) } })],
  ];
  const aRequest = (overrides: {
    body?: string;
    segments?: string[];
    headers?: Record<string, string>;
  }): FuzzRequest => ({
    segments: overrides.segments ?? [],
    query: '',
    body: { body: overrides.body, contentType: 'application/json' },
    headers: overrides.headers ?? {},
    authorization: undefined,
    validCredential: true,
  });
  const cases = routes.flatMap((route) => extremes.map(([label, build]) => [route.id, label, route, build] as const));
  it.each(cases)('%s: %s', async (_id, _label, route, build) => {
    expectSafeAnswer(await send(route, build(route)));
  });
});
