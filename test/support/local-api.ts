import {
  outgoing,
  readAnswer,
  startLocalApi,
  type ApiResponse,
  type LocalApi,
  type RequestOptions,
} from '../../tools/local/api-client';
import type { LocalTimeouts } from '../../tools/local/server';
import type { Deps } from '../../lib/deps';
import { requestProblems } from './openapi-requests';

export type { ApiResponse, RequestOptions };
export type TestApi = LocalApi;

/**
 * The local API on a free port, over the test run's DynamoDB Local, for end-to-end tests: the
 * given parts (a clock, ids) replace the production ones, the given timeouts the deployed ones.
 * Its requests are checked against the OpenAPI document (below); the bench's, through
 * tools/local/api-client.ts alone, are not.
 */
export async function startTestApi(
  overrides: Partial<Deps> = {},
  timeouts: Partial<LocalTimeouts> = {},
): Promise<TestApi> {
  const api = await startLocalApi(overrides, timeouts);
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
          `(lib/openapi) refuses the request:\n- ${problems.join('\n- ')}`,
      );
    }
  }
  return answer;
}
