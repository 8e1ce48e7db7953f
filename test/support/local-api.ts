import { startLocalServer, type LocalTimeouts } from '../../tools/local/server';
import type { LocalOutbound } from '../../tools/local/lambda-runtime';
import { productionDeps, type Deps } from '../../lib/storage/client';
import { requestProblems } from './openapi-requests';

export type RequestOptions = {
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON (with its Content-Type unless one is given). */
  body?: unknown;
  query?: Record<string, string | readonly string[]>;
};

/** `body`: parsed as JSON, or undefined when it is not JSON. */
export type ApiResponse = { status: number; headers: Headers; text: string; body: unknown };

export type TestApi = {
  url: string;
  request: (method: string, path: string, options?: RequestOptions) => Promise<ApiResponse>;
  close: () => Promise<void>;
};

/**
 * The local API on a free port, over the DynamoDB Local the environment names, and a client for
 * it: the given parts (a DynamoDB client, a clock, ids) replace the production ones, and the given
 * timeouts the deployed ones. `startTestApi` (below) checks its requests against the OpenAPI document.
 */
export async function startLocalApi(
  overrides: Partial<Deps> = {},
  timeouts: Partial<LocalTimeouts> = {},
  outbound: Partial<LocalOutbound> = {},
): Promise<TestApi> {
  const production = productionDeps();
  const server = await startLocalServer({ deps: { ...production, ...overrides }, port: 0, timeouts, outbound });
  return {
    url: server.url,
    request: async (method, path, options = {}) =>
      readAnswer(await fetch(outgoing(server.url, method, path, options).request)),
    close: async () => {
      await server.close();
      production.db.destroy();
    },
  };
}

/** The request as fetch sends it (a string body without a Content-Type goes as `text/plain`), and its body. */
export function outgoing(baseUrl: string, method: string, path: string, options: RequestOptions) {
  const url = new URL(path, baseUrl);
  for (const [name, value] of Object.entries(options.query ?? {})) {
    for (const item of typeof value === 'string' ? [value] : value) url.searchParams.append(name, item);
  }
  const headers = new Headers(options.headers);
  const json = options.body !== undefined && typeof options.body !== 'string';
  if (json && !headers.has('content-type')) headers.set('content-type', 'application/json');
  const body = json ? JSON.stringify(options.body) : (options.body as string | undefined);
  return { request: new Request(url, { method, headers, body }), body };
}

export async function readAnswer(response: Response): Promise<ApiResponse> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, text, body };
}

/**
 * The local API on a free port, over the test run's DynamoDB Local, for end-to-end tests: the
 * given parts (a clock, ids) replace the production ones, the given timeouts the deployed ones.
 * Its requests are checked against the OpenAPI document (below); the bench's are not.
 */
export async function startTestApi(
  overrides: Partial<Deps> = {},
  timeouts: Partial<LocalTimeouts> = {},
  outbound: Partial<LocalOutbound> = {},
): Promise<TestApi> {
  const api = await startLocalApi(overrides, timeouts, outbound);
  return { ...api, request: (method, path, options = {}) => send(api.url, method, path, options) };
}

/** Served by the local server besides the API's operations: not in the document. */
const localPages = /^\/(?:health|openapi\.json|docs(?:\/.*)?)$/;

/** What the OpenAPI document refuses in this request, without sending it: [] when it validates. */
export function documentProblems(method: string, path: string, options: RequestOptions = {}): string[] {
  const { request, body } = outgoing('http://127.0.0.1', method, path, options);
  return requestProblems({ method, url: new URL(request.url), headers: request.headers, body });
}

/**
 * Every request the service accepts must validate against the document it publishes: the whole
 * end-to-end suite then proves that a validating proxy in front of the service lets it through.
 */
async function send(baseUrl: string, method: string, path: string, options: RequestOptions): Promise<ApiResponse> {
  const { request, body } = outgoing(baseUrl, method, path, options);
  const url = new URL(request.url);
  const response = await fetch(request);
  const answer = await readAnswer(response);
  if (response.ok && !localPages.test(url.pathname)) {
    const problems = requestProblems({ method, url, headers: request.headers, body });
    if (problems.length > 0) {
      throw new Error(
        `${method} ${url.pathname}${url.search} was answered ${response.status}, yet the OpenAPI document ` +
          `(tools/openapi/document) refuses the request:\n- ${problems.join('\n- ')}`,
      );
    }
  }
  return answer;
}
