import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openApiDocument } from './document/document';

export const documentPath = fileURLToPath(new URL('../../docs/openapi.json', import.meta.url));

/** docs/openapi.json as `npm run openapi` writes it: the document of the code as it is now. */
export function openApiDocumentText(): string {
  const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return `${JSON.stringify(openApiDocument(packageJson.version), null, 2)}\n`;
}
