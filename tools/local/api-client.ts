import { productionDeps, type Deps } from '../../lib/deps';
import { startLocalServer, type LocalTimeouts } from './server';

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

export type LocalApi = {
  url: string;
  request: (method: string, path: string, options?: RequestOptions) => Promise<ApiResponse>;
  close: () => Promise<void>;
};

/**
 * The local API on a free port, over the DynamoDB Local the environment names, and a client for
 * it: the given parts (a DynamoDB client, a clock, ids) replace the production ones, and the given
 * timeouts the deployed ones. Used by the end-to-end tests (through test/support/local-api.ts) and the bench.
 */
export async function startLocalApi(
  overrides: Partial<Deps> = {},
  timeouts: Partial<LocalTimeouts> = {},
): Promise<LocalApi> {
  const production = productionDeps();
  const server = await startLocalServer({ deps: { ...production, ...overrides }, port: 0, timeouts });
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
  let body: string | undefined;
  if (typeof options.body === 'string') body = options.body;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  }
  return { request: new Request(url, { method, headers, body }), body };
}

export async function readAnswer(response: Response): Promise<ApiResponse> {
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
