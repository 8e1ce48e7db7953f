import type { GatewayReply } from '../local/api-gateway';
import {
  buildSettingsPage,
  cacheControl,
  indexFile,
  pageHeaders,
  pagePath,
  type PageFile,
} from '../../infra/cdk/settings-page';

let built: Map<string, PageFile> | undefined;

/**
 * The local server's answer to a GET under `/app`, or undefined for any other path, as the stack's S3 integration
 * answers on AWS (infra/cdk/constructs/settings-page.ts): `/app` sent to `/app/`, the page's files with their type,
 * cache rule and security headers, 404 for any other name. The page is built on its first request, so `npm start`
 * and the tests that never ask for it pay nothing for it.
 */
export function localSettingsPage(path: string): GatewayReply | undefined {
  if (path === '/app') return { statusCode: 301, headers: { Location: [pagePath] }, body: Buffer.alloc(0) };
  if (!path.startsWith(pagePath)) return undefined;
  const files = (built ??= buildSettingsPage());
  const file = files.get(path === pagePath ? indexFile : path.slice(pagePath.length));
  const headers: Record<string, string[]> = Object.fromEntries(
    Object.entries(pageHeaders).map(([name, value]) => [name, [value]]),
  );
  if (file === undefined) return { statusCode: 404, headers, body: Buffer.alloc(0) };
  const served = { ...headers, 'Content-Type': [file.contentType], 'Cache-Control': [cacheControl(file)] };
  return { statusCode: 200, headers: served, body: file.body };
}
