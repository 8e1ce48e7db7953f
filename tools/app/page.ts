import type { GatewayReply } from '../local/api-gateway';
import {
  buildSettingsPage,
  cacheControl,
  contentTypes,
  indexCacheControl,
  indexFile,
  missingFileHeaders,
  pageHeaders,
  pagePath,
  type PageFile,
} from '../../infra/cdk/settings-page';

let built: Map<string, PageFile> | undefined;

const asReplyHeaders = (headers: Readonly<Record<string, string>>): Record<string, string[]> =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]]));

/**
 * The local server's answer to a GET under `/app`, or undefined for any other path, as the stack's S3 integration
 * answers on AWS (infra/cdk/constructs/settings-page.ts): `/app` sent to the same path with a slash, with the headers
 * of the page's own answer there (its answer overridden into a 301); the page's files with their type, cache rule and
 * security headers; 404 with an empty body for any other name. The page is built on its first request, so
 * `npm start` and the tests that never ask for it pay nothing for it.
 */
export function localSettingsPage(path: string): GatewayReply | undefined {
  if (`${path}/` === pagePath) {
    const headers = { ...pageHeaders, 'Content-Type': contentTypes['.html'], 'Cache-Control': indexCacheControl };
    return { statusCode: 301, headers: { ...asReplyHeaders(headers), Location: [`${path}/`] }, body: Buffer.alloc(0) };
  }
  if (!path.startsWith(pagePath)) return undefined;
  const files = (built ??= buildSettingsPage());
  const file = files.get(path === pagePath ? indexFile : path.slice(pagePath.length));
  if (file === undefined)
    return {
      statusCode: 404,
      headers: asReplyHeaders({ ...pageHeaders, ...missingFileHeaders }),
      body: Buffer.alloc(0),
    };
  const headers = { ...pageHeaders, 'Content-Type': file.contentType, 'Cache-Control': cacheControl(file) };
  return { statusCode: 200, headers: asReplyHeaders(headers), body: file.body };
}
