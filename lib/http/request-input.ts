import type { APIGatewayProxyEvent } from 'aws-lambda';
import type * as z from 'zod/mini';
import { InvalidInputError, NotFoundError, isUuid } from '../domain/model';
import { messages } from '../messages';
import { decodePathParameter, type DecodedPathParameter } from './middleware/route';

/*
 * What a Prospect API handler reads from its request: its path parameters, decoded once, and its
 * JSON body, validated by the route's schema; a failure is the route's 400 or 404. (The query
 * parameters of the list routes: query-parameters.ts.)
 */

type PathEvent = Pick<APIGatewayProxyEvent, 'pathParameters'>;

function pathParameterOf(event: PathEvent, name: string): DecodedPathParameter {
  return decodePathParameter(event.pathParameters?.[name] ?? '');
}

/**
 * The parameter's text where it only identifies the request (the cursor's binding): decoded, or
 * as received when it cannot be, for the route to refuse.
 */
export function pathParameterText(event: PathEvent, name: string): string {
  const parameter = pathParameterOf(event, name);
  return parameter.readable ? parameter.value : parameter.raw;
}

/** A prospect_id that is not a UUID is simply not found, before any read (docs/api.md#path-ids). */
export function prospectIdOf(event: PathEvent): string {
  const parameter = pathParameterOf(event, 'prospect_id');
  if (!parameter.readable || !isUuid(parameter.value)) throw new NotFoundError(messages.prospect.notFound);
  return parameter.value.toLowerCase();
}

/** The tag of DELETE /prospects/{prospect_id}/tags/{tag}: its id or name, unreadable as sent a 400. */
export function tagOf(event: PathEvent): string {
  const parameter = pathParameterOf(event, 'tag');
  if (!parameter.readable) {
    throw new InvalidInputError(messages.path.unreadable('tag'), {
      field: 'tag',
      message: messages.path.unreadable('tag'),
    });
  }
  return parameter.value;
}

/** Prospect API bodies: JSON parsed and validated by the route's zod schema; any failure is a 400 naming the field. */
export function parseJsonBody<T>(body: string | null, schema: z.ZodMiniType<T>): T {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body ?? '');
  } catch (error) {
    throw new InvalidInputError(messages.body.notJsonObject, undefined, { cause: error });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new InvalidInputError(messages.body.notJsonObject);
  const result = schema.safeParse(parsed);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.code === 'unrecognized_keys' ? issue.keys[0] : issue?.path[0];
  const name = field === undefined ? 'body' : String(field);
  const reason = issue?.message ?? messages.body.refusedValue;
  const message =
    issue?.code === 'unrecognized_keys'
      ? messages.body.unknownField(name)
      : name === 'body'
        ? messages.body.invalidBody(reason)
        : messages.body.invalidField(name, reason);
  throw new InvalidInputError(message, { field: name, message });
}

/** The bearer token of a settings call, as the authorizer read it (lib/auth/authorize.ts): the member's access token. */
export function accessTokenOf(event: Pick<APIGatewayProxyEvent, 'headers'>): string {
  const name = Object.keys(event.headers ?? {}).find((candidate) => candidate.toLowerCase() === 'authorization');
  const match = /^Bearer\s+(\S.*)$/i.exec(event.headers?.[name ?? '']?.trim() ?? '');
  return match?.[1]?.trim() ?? '';
}

/** The hosts the local server is reached at: it listens on 127.0.0.1 alone (tools/local/server.ts). */
const loopbackHost = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d+)?$/i;

/**
 * The caller's address for the identity provider's threat protection: the proxy event's
 * `requestContext.identity.sourceIp`, the address API Gateway received the request from ("Lambda proxy integrations
 * in API Gateway", input format, https://docs.aws.amazon.com/apigateway/latest/developerguide/set-up-lambda-proxy-integrations.html).
 */
export function callerOf(event: Pick<APIGatewayProxyEvent, 'requestContext'>): { ipAddress: string | undefined } {
  return { ipAddress: event.requestContext?.identity?.sourceIp || undefined };
}

/**
 * The API's own base URL, as the caller reached it, for the webhook URLs a settings answer shows (their
 * `?endpoint_id=`, and the `&token=` a form tool may append). Read from the proxy event's request context, never
 * from a header the caller writes (`Host`, `X-Forwarded-Proto`):
 * - `domainName`, "The full domain name used to invoke the API. This should be the same as the incoming Host
 *   header": the execute-api host or the custom domain ("Variables for data transformations for API Gateway",
 *   https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-mapping-template-reference.html);
 * - the scheme: https on AWS, where "The APIs created with Amazon API Gateway expose HTTPS endpoints only"
 *   ("Data protection in Amazon API Gateway", encryption in transit,
 *   https://docs.aws.amazon.com/apigateway/latest/developerguide/data-protection-encryption.html); http on the
 *   local server's loopback host alone;
 * - the base path: `requestContext.path` is the path the caller sent, "/{stage}/root/child" on the execute-api host
 *   (same page, `$context.path`), the mapping's base path then the route behind a custom domain, the route alone
 *   behind a mapping with no base path (`(none)`: "Use API mappings to connect API stages to a custom domain name
 *   for REST APIs", https://docs.aws.amazon.com/apigateway/latest/developerguide/rest-api-mappings.html). What
 *   precedes the route is the base: the route's own segments are as many as its resource path's
 *   (`requestContext.resourcePath`, a parameter takes one segment), at the end of the path. Neither `event.path`
 *   nor `stage` can say it: `path` drops the stage on the execute-api host yet keeps a custom domain's base path,
 *   and the stage is not in a custom domain's URLs. AWS does not document `path` behind a custom domain; captures
 *   do (github.com/aws/serverless-java-container/issues/112, github.com/CodeGenieApp/serverless-express/issues/216),
 *   and docs/deploy.md, first deployment check 21, confirms the URLs on AWS.
 */
export function apiBaseUrlOf(event: Pick<APIGatewayProxyEvent, 'requestContext'>): string {
  const { domainName = '', path, resourcePath } = event.requestContext;
  const scheme = loopbackHost.test(domainName) ? 'http' : 'https';
  return `${scheme}://${domainName}${basePathOf(path, resourcePath)}`;
}

/** What precedes the route in the path the caller sent: `/{stage}`, `/{base path}` or nothing. */
function basePathOf(requestPath: string, resourcePath: string): string {
  const trimmed = requestPath.length > 1 && requestPath.endsWith('/') ? requestPath.slice(0, -1) : requestPath;
  const sent = trimmed.split('/');
  const routeSegments = resourcePath.split('/').length - 1;
  return sent.slice(0, Math.max(1, sent.length - routeSegments)).join('/');
}

/**
 * An id in a settings route's path (docs/api.md#settings-api): one that is not a UUID is not found, before any read.
 */
export function pathIdOf(event: PathEvent, name: string, notFound: string): string {
  const parameter = pathParameterOf(event, name);
  if (!parameter.readable || !isUuid(parameter.value)) throw new NotFoundError(notFound);
  return parameter.value.toLowerCase();
}

/**
 * A key in a settings route's path (a custom field's, docs/api.md#custom-fields): one that does not have the keys'
 * form names nothing, and is not found before any read, as an id that is not a UUID.
 */
export function pathKeyOf(event: PathEvent, name: string, pattern: RegExp, notFound: string): string {
  const parameter = pathParameterOf(event, name);
  if (!parameter.readable || !pattern.test(parameter.value)) throw new NotFoundError(notFound);
  return parameter.value;
}
