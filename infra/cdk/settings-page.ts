import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

/** One file of the settings page as served: its type, its bytes, and whether its name changes with its content. */
export type PageFile = { contentType: string; body: Buffer; hashedName: boolean };

const appDirectory = fileURLToPath(new URL('../../app/', import.meta.url));

/** Where the page is, under the API's own origin: `GET /app/` on `npm start`'s port, `…/<stage>/app/` on AWS. */
export const pagePath = '/app/';

/** The page's own file, under `pagePath`; everything else is under `assets/`, with a hashed name. */
export const indexFile = 'index.html';

/**
 * What every answer of the page carries (decisions 7.3, issue 27): no inline script or style and nothing from another
 * origin (the API is the page's own), never framed, no type sniffing, no referrer sent anywhere.
 */
export const pageHeaders: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/** A hashed file never changes under its name: cached a year. The page itself is asked for again every time. */
export const assetCacheControl = 'public, max-age=31536000, immutable';
export const indexCacheControl = 'no-cache';
export const cacheControl = (file: PageFile) => (file.hashedName ? assetCacheControl : indexCacheControl);

const contentTypes: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/**
 * The settings page built by esbuild (the project's bundler), in memory: app/src/main.tsx and its styles, minified,
 * under names that carry their content's hash (`assets/main-<hash>.js`), and app/index.html naming them relative to
 * itself, so that the page works under any prefix (a stage, a custom domain's base path). Synchronous, because the
 * CDK's local bundling is (`ILocalBundling.tryBundle`); the local server builds it once, at its first `GET /app/`.
 */
export function buildSettingsPage(): Map<string, PageFile> {
  const result = buildSync({
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
  const html = readFileSync(`${appDirectory}${indexFile}`, 'utf8')
    .replace('{{script}}', named('.js'))
    .replace('{{styles}}', named('.css'));
  files.set(indexFile, { contentType: 'text/html; charset=utf-8', body: Buffer.from(html), hashedName: false });
  return files;
}
