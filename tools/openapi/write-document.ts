import '../../node-major.js'; // first: on another Node major, nothing else runs
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { documentPath, openApiDocumentText } from './document-file';

/** `npm run openapi`: writes the API description generated from the route list and the zod schemas. */
writeFileSync(documentPath, openApiDocumentText());
console.log(`${relative(process.cwd(), documentPath)} écrit.`);
