import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

/** One file of the settings page as served: its type, its bytes, and whether its name changes with its content. */
export type PageFile = { contentType: string; body: Buffer; hashedName: boolean };

/** The page's sources (app/index.html, app/src/): what the stack's asset is bundled from. */
export const appDirectory = fileURLToPath(new URL('../../app/', import.meta.url));

/** Where the page is, under the API's own origin: `GET /app/` on `npm start`'s port, `…/<stage>/app/` on AWS. */
export const pagePath = '/app/';

/**
 * The API's resources that serve it (infra/cdk/constructs/settings-page.ts): `/app`, which is also `/app/` (REST APIs
 * route both to one resource) and answers the page, and everything under it.
 */
export const pageResourcePaths = { page: pagePath.slice(0, -1), files: `${pagePath}{proxy+}` } as const;

/** The page's own file, under `pagePath`; everything else is under `assets/`, with a hashed name. */
export const indexFile = 'index.html';

/** The page's icon (app/favicon.svg), named by `<link rel="icon">`: the browser asks for no `/favicon.ico`. */
export const iconFile = 'favicon.svg';

/** A name that changes with the content, as esbuild names the script and styles (`favicon-<hash>.svg`). */
const hashedName = (name: string, body: Buffer) => {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 8).toUpperCase();
  return `assets/${name.replace(/\.(\w+)$/, `-${hash}.$1`)}`;
};

/**
 * What every answer of the page carries (docs/api.md#settings-page): no inline script or style and nothing from another
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

/** Each kind of file the page is made of, by its name's ending, with the type it is served with. */
export const contentTypes = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml; charset=utf-8',
} as const;

const isKnownExtension = (extension: string): extension is keyof typeof contentTypes =>
  Object.hasOwn(contentTypes, extension);

/**
 * Besides `pageHeaders`, what a name that is none of the page's files gets, with an empty body: 404 (a missing file,
 * or any other name) or 500 (S3 failed). Never kept, so that the next request asks again.
 */
export const missingFileHeaders: Readonly<Record<string, string>> = {
  'Content-Type': 'text/plain; charset=utf-8',
  'Cache-Control': indexCacheControl,
};

/**
 * The settings page built by esbuild (the project's bundler), in memory: app/src/main.tsx and its styles, minified,
 * and the icon, under names that carry their content's hash (`assets/main-<hash>.js`), and app/index.html naming them relative to
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
    const extension = path.slice(path.lastIndexOf('.'));
    if (!isKnownExtension(extension) || extension === '.html')
      throw new Error(`settings page: unexpected output ${path}`);
    files.set(path, { contentType: contentTypes[extension], body: Buffer.from(output.contents), hashedName: true });
  }
  const icon = readFileSync(`${appDirectory}${iconFile}`);
  files.set(hashedName(iconFile, icon), { contentType: contentTypes['.svg'], body: icon, hashedName: true });
  const named = (extension: string) => [...files.keys()].find((path) => path.endsWith(extension)) ?? '';
  const html = readFileSync(`${appDirectory}${indexFile}`, 'utf8')
    .replace('{{script}}', named('.js'))
    .replace('{{styles}}', named('.css'))
    .replace('{{icon}}', named('.svg'));
  files.set(indexFile, { contentType: contentTypes['.html'], body: Buffer.from(html), hashedName: false });
  return files;
}
