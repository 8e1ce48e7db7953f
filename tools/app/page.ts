import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { GatewayReply } from '../local/api-gateway';

/** One file of the settings page as served: its type, its bytes, and whether its name changes with its content. */
export type PageFile = { contentType: string; body: Buffer; hashedName: boolean };

const appDirectory = fileURLToPath(new URL('../../app/', import.meta.url));
export const pagePath = '/app/';

/**
 * What every answer of the page carries (decisions 7.3, issue 27): no inline script or style and nothing from another
 * origin (the API is the page's own), never framed, no type sniffing, no referrer sent anywhere.
 */
export const pageHeaders: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/** A hashed file never changes under its name: cached a year; the page itself is asked for again every time. */
export const cacheControl = (file: PageFile) => (file.hashedName ? 'public, max-age=31536000, immutable' : 'no-cache');

const contentTypes: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/**
 * The settings page built by esbuild (the project's bundler), in memory: app/src/main.tsx and its styles, minified,
 * under names that carry their content's hash (`assets/main-<hash>.js`), and app/index.html naming them. By path
 * under `pagePath`: `index.html` and `assets/…`.
 */
export async function buildSettingsPage(): Promise<Map<string, PageFile>> {
  const result = await build({
    absWorkingDir: appDirectory,
    entryPoints: ['src/main.tsx'],
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    entryNames: 'assets/[name]-[hash]',
    outdir: 'dist',
    write: false,
    logLevel: 'warning',
  });
  const files = new Map<string, PageFile>();
  for (const output of result.outputFiles) {
    const path = relative(`${appDirectory}dist`, output.path);
    const type = contentTypes[path.slice(path.lastIndexOf('.'))];
    if (type === undefined) throw new Error(`settings page: unexpected output ${path}`);
    files.set(path, { contentType: type, body: Buffer.from(output.contents), hashedName: true });
  }
  const named = (extension: string) => [...files.keys()].find((path) => path.endsWith(extension)) ?? '';
  const html = (await readFile(`${appDirectory}index.html`, 'utf8'))
    .replace('{{script}}', `${pagePath}${named('.js')}`)
    .replace('{{styles}}', `${pagePath}${named('.css')}`);
  files.set('index.html', { contentType: 'text/html; charset=utf-8', body: Buffer.from(html), hashedName: false });
  return files;
}

let built: Promise<Map<string, PageFile>> | undefined;

/**
 * The local server's answer to a GET under `/app`, or undefined for any other path: the page is built on its first
 * request, so `npm start` and the tests that never ask for it pay nothing for it.
 */
export async function localSettingsPage(path: string): Promise<GatewayReply | undefined> {
  if (path === '/app') return { statusCode: 301, headers: { Location: [pagePath] }, body: Buffer.alloc(0) };
  if (!path.startsWith(pagePath)) return undefined;
  built ??= buildSettingsPage();
  const file = (await built).get(path === pagePath ? 'index.html' : path.slice(pagePath.length));
  const headers = Object.fromEntries(Object.entries(pageHeaders).map(([name, value]) => [name, [value]]));
  if (file === undefined) return { statusCode: 404, headers, body: Buffer.alloc(0) };
  const served = { ...headers, 'Content-Type': [file.contentType], 'Cache-Control': [cacheControl(file)] };
  return { statusCode: 200, headers: served, body: file.body };
}
