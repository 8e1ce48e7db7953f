import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { openApiDocumentText } from '../../tools/openapi/document-file';

/**
 * Requests checked against the OpenAPI document the code generates, the way a validating proxy
 * would: operation (method and path template), path, query and header parameters, credentials,
 * media type and body. ajv (JSON Schema 2020-12, as OpenAPI 3.1 uses it) and ajv-formats in
 * `full` mode judge every value; this file only frames the request as OpenAPI describes it. No
 * request validator package fits: openapi-backend's current release ignores the media type and
 * refuses the `token` query credential as an unknown parameter; Prism needs Node 24;
 * openapi-request-validator reads OpenAPI 3.0 only; express-openapi-validator works on Express
 * requests.
 */

type Parameter = {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: { type?: string };
};
type MediaType = { encoding?: Record<string, { style?: string }> };
type Operation = {
  parameters?: ({ $ref: string } | Parameter)[];
  requestBody?: { required?: boolean; content: Record<string, MediaType> };
  security?: Record<string, string[]>[];
};
type SecurityScheme = { type: string; scheme?: string; in?: string; name?: string };
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, SecurityScheme> };
};

export type DocumentRequest = { method: string; url: URL; headers: Headers; body: string | undefined };

type Validator = { document: Document; ajv: Ajv2020 };
let validator: Validator | undefined;

/** Built on first use, once per test file (jest gives each its own modules); ajv compiles each schema once. */
function load(): Validator {
  if (validator !== undefined) return validator;
  const document = JSON.parse(openApiDocumentText()) as Document;
  // Strict: an unknown keyword or format fails loudly instead of validating nothing.
  const ajv = new Ajv2020({ allErrors: true, strictTypes: false, strictRequired: false, validateSchema: false });
  addFormats(ajv, { mode: 'full' });
  // OpenAPI 3.1 makes `format` an annotation; for addresses the document's pattern is the rule.
  ajv.addFormat('idn-email', true);
  // The document's own fields (openapi, paths…) are no JSON Schema keywords: known, they let strict mode compile it.
  for (const field of Object.keys(document)) ajv.addKeyword(field);
  ajv.addSchema(document, 'openapi.json');
  validator = { document, ajv };
  return validator;
}

const pointer = (...parts: string[]) => parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

function check({ ajv }: Validator, schemaPointer: string, value: unknown, name: string): string[] {
  const validate = ajv.getSchema(`openapi.json#/${schemaPointer}`);
  if (validate === undefined) return [`${name}: no schema at ${schemaPointer}`];
  return validate(value) ? [] : [ajv.errorsText(validate.errors, { dataVar: name })];
}

/** The document's operation for this method and path, with the path parameters' values. */
function matchOperation(document: Document, method: string, path: string) {
  for (const [template, item] of Object.entries(document.paths)) {
    const operation = item[method.toLowerCase()];
    if (operation === undefined) continue;
    const names = [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string);
    const shape = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '([^/]+)')}$`);
    const values = shape.exec(path);
    if (values === null) continue;
    const pathValues = Object.fromEntries(names.map((name, index) => [name, decode(values[index + 1] ?? '')]));
    return { template, operation, pathValues };
  }
  return undefined;
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function parameterProblems(
  current: Validator,
  request: DocumentRequest,
  operationPath: string[],
  operation: Operation,
  pathValues: Record<string, string>,
): string[] {
  const problems: string[] = [];
  (operation.parameters ?? []).forEach((entry, index) => {
    const at =
      '$ref' in entry ? entry.$ref.replace(/^#\//, '') : pointer(...operationPath, 'parameters', String(index));
    const parameter = at
      .split('/')
      .reduce<unknown>(
        (node, part) => (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')],
        current.document,
      ) as Parameter;
    const values =
      parameter.in === 'path'
        ? [pathValues[parameter.name]].filter((value) => value !== undefined)
        : parameter.in === 'query'
          ? request.url.searchParams.getAll(parameter.name)
          : [request.headers.get(parameter.name)].filter((value) => value !== null);
    if (values.length === 0 && parameter.required) problems.push(`${parameter.in} parameter ${parameter.name} missing`);
    const name = `${parameter.in} parameter ${parameter.name}`;
    // A list in a query (the document's are `form`, exploded): the name repeated, its values one array.
    if (parameter.in === 'query' && parameter.schema?.type === 'array') {
      if (values.length > 0) problems.push(...check(current, `${at}/schema`, values, name));
      return;
    }
    for (const value of values) problems.push(...check(current, `${at}/schema`, value, name));
  });
  return problems;
}

/** Whether some security requirement of the operation has all its credentials in the request. */
function carriesCredentials({ document }: Validator, request: DocumentRequest, operation: Operation): boolean {
  const present = (scheme: SecurityScheme | undefined): boolean => {
    if (scheme?.type === 'http' && scheme.scheme === 'bearer') {
      return /^bearer\s+\S/i.test(request.headers.get('authorization')?.trim() ?? '');
    }
    if (scheme?.type !== 'apiKey' || scheme.name === undefined) return false;
    const value = scheme.in === 'query' ? request.url.searchParams.get(scheme.name) : request.headers.get(scheme.name);
    return (value ?? '').trim() !== '';
  };
  const requirements = operation.security ?? [];
  return (
    requirements.length === 0 ||
    requirements.some((requirement) =>
      Object.keys(requirement).every((name) => present(document.components.securitySchemes[name])),
    )
  );
}

/** The Media Type Object for this Content-Type: the exact type, else its `type/*` range, else the wildcard (the only match for none). */
function mediaTypeFor(content: Record<string, MediaType>, contentType: string | null): string | undefined {
  const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  const keys = Object.keys(content);
  const find = (wanted: string) => keys.find((key) => key.toLowerCase() === wanted);
  return (type === '' ? undefined : (find(type) ?? find(`${type.split('/')[0]}/*`))) ?? find('*/*');
}

/**
 * A form as OpenAPI reads it for the Media Type's `encoding`: `name[key]=value` fills the object
 * `name` when its style is `deepObject`; a repeated name (style `form`, exploded) gives a list.
 */
function readForm(body: string, encoding: MediaType['encoding'] = {}): Record<string, unknown> {
  const fields = new Map<string, unknown>();
  for (const [key, value] of new URLSearchParams(body)) {
    const deep = /^([^[\]]+)\[(.*)\]$/s.exec(key);
    const name = deep?.[1];
    if (deep && name !== undefined && encoding[name]?.style === 'deepObject') {
      const object = (fields.get(name) as Map<string, string> | undefined) ?? new Map<string, string>();
      fields.set(name, object.set(deep[2] ?? '', value));
      continue;
    }
    const previous = fields.get(key);
    fields.set(key, previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value]);
  }
  return Object.fromEntries(
    [...fields].map(([name, value]) => [name, value instanceof Map ? Object.fromEntries(value) : value]),
  );
}

function bodyProblems(current: Validator, request: DocumentRequest, operationPath: string[], operation: Operation) {
  const requestBody = operation.requestBody;
  if (requestBody === undefined) return [];
  if (request.body === undefined || request.body === '') return requestBody.required ? ['body missing'] : [];
  const contentType = request.headers.get('content-type');
  const mediaType = mediaTypeFor(requestBody.content, contentType);
  if (mediaType === undefined) {
    return [`Content-Type ${contentType} not accepted (${Object.keys(requestBody.content).join(', ')})`];
  }
  let body: unknown;
  if (mediaType === 'application/x-www-form-urlencoded') {
    body = readForm(request.body, requestBody.content[mediaType]?.encoding);
  } else {
    // Every other media type of the document carries JSON: its request body descriptions say so.
    try {
      body = JSON.parse(request.body);
    } catch {
      return [`body is not JSON (${mediaType})`];
    }
  }
  return check(current, pointer(...operationPath, 'requestBody', 'content', mediaType, 'schema'), body, 'body');
}

/** What the document refuses in this request: [] when it validates. */
export function requestProblems(request: DocumentRequest): string[] {
  const current = load();
  const match = matchOperation(current.document, request.method, request.url.pathname);
  if (match === undefined) return [`no operation ${request.method} ${request.url.pathname} in the document`];
  const operationPath = ['paths', match.template, request.method.toLowerCase()];
  return [
    ...(carriesCredentials(current, request, match.operation) ? [] : ['no credential where the document says']),
    ...parameterProblems(current, request, operationPath, match.operation, match.pathValues),
    ...bodyProblems(current, request, operationPath, match.operation),
  ];
}
