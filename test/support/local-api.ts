import { startLocalServer } from '../../infra/local/server';
import { productionDeps, type Deps } from '../../lib/deps';

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

async function send(baseUrl: string, method: string, path: string, options: RequestOptions): Promise<ApiResponse> {
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
  const response = await fetch(url, { method, headers, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: parseJson(text) };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
