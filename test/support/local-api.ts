import { startLocalServer } from '../../infra/local/server';
import { productionDeps, type Deps } from '../../lib/deps';
import { requestProblems } from './openapi-requests';

export type RequestOptions = {
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON (with its Content-Type unless one is given). */
  body?: unknown;
  query?: Record<string, string | readonly string[]>;
};

export type ApiResponse = {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  body: unknown;
};

export type TestApi = {
  url: string;
  request: (method: string, path: string, options?: RequestOptions) => Promise<ApiResponse>;
  close: () => Promise<void>;
};

/**
 * The local API on a free port, over the test run's DynamoDB Local, for end-to-end tests: the
 * given parts (a clock, ids) replace the production ones.
 */
export async function startTestApi(overrides: Partial<Deps> = {}): Promise<TestApi> {
  const production = productionDeps();
  const server = await startLocalServer({ deps: { ...production, ...overrides }, port: 0 });
  return {
    url: server.url,
    request: (method, path, options = {}) => send(server.url, method, path, options),
    close: async () => {
      await server.close();
      production.db.destroy();
    },
  };
}

/** The request as fetch sends it (a string body without a Content-Type goes as `text/plain`), and its body. */
function outgoing(baseUrl: string, method: string, path: string, options: RequestOptions) {
  const url = new URL(path, baseUrl);
  for (const [name, value] of Object.entries(options.query ?? {})) {
    for (const item of typeof value === 'string' ? [value] : value) url.searchParams.append(name, item);
  }
  const headers = new Headers(options.headers);
  let body: string | undefined;
  if (typeof options.body === 'string') body = options.body;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  }
  return { request: new Request(url, { method, headers, body }), body };
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
  const text = await response.text();
  if (response.ok && !localPages.test(url.pathname)) {
    const problems = requestProblems({ method, url, headers: request.headers, body });
    if (problems.length > 0) {
      throw new Error(
        `${method} ${url.pathname}${url.search} was answered ${response.status}, yet the OpenAPI document ` +
          `(lib/openapi) refuses the request:\n- ${problems.join('\n- ')}`,
      );
    }
  }
  return { status: response.status, headers: response.headers, text, body: parseJson(text) };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
