import type { APIGatewayProxyEvent } from 'aws-lambda';
import type * as z from 'zod/mini';
import { InvalidInputError, NotFoundError } from '../domain/errors';
import { isUuid } from '../ids';
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

/**
 * The caller's address for the identity provider's threat protection: the proxy event's
 * `requestContext.identity.sourceIp`, the address API Gateway received the request from ("Lambda proxy integrations
 * in API Gateway", input format, https://docs.aws.amazon.com/apigateway/latest/developerguide/set-up-lambda-proxy-integrations.html).
 */
export function callerOf(event: Pick<APIGatewayProxyEvent, 'requestContext'>): { ipAddress: string | undefined } {
  return { ipAddress: event.requestContext?.identity?.sourceIp || undefined };
}

/**
 * The API's own base URL, as the caller reached it, for the webhook URLs a settings answer shows. On AWS the
 * default endpoint is `https://{api-id}.execute-api.{region}.amazonaws.com/{stage}/` ("Invoke REST APIs in API
 * Gateway", https://docs.aws.amazon.com/apigateway/latest/developerguide/how-to-call-api.html), built from the
 * proxy event's `requestContext.domainName` and `stage` ("Lambda proxy integrations in API Gateway", input
 * format: https://docs.aws.amazon.com/apigateway/latest/developerguide/set-up-lambda-proxy-integrations.html);
 * the local server is reached at its root, over http, on the host the request names.
 */
export function apiBaseUrlOf(event: Pick<APIGatewayProxyEvent, 'requestContext'>): string {
  const { domainName = '', stage } = event.requestContext;
  return /\.execute-api\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/.test(domainName)
    ? `https://${domainName}/${stage}`
    : `http://${domainName}`;
}

/** An id in a settings route's path (decisions 7.2): one that is not a UUID is not found, before any read. */
export function pathIdOf(event: PathEvent, name: string, notFound: string): string {
  const parameter = pathParameterOf(event, name);
  if (!parameter.readable || !isUuid(parameter.value)) throw new NotFoundError(notFound);
  return parameter.value.toLowerCase();
}
