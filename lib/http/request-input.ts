import type { APIGatewayProxyEvent } from 'aws-lambda';
import type * as z from 'zod/mini';
import { InvalidInputError, NotFoundError } from '../domain/errors';
import { isUuid } from '../ids';
import { messages } from '../messages';

/*
 * What a Prospect API handler reads from its request: its path parameters, decoded once, and its
 * JSON body, validated by the route's schema; a failure is the route's 400 or 404. (The query
 * parameters of the list routes: query-parameters.ts.)
 */

type PathEvent = Pick<APIGatewayProxyEvent, 'pathParameters'>;

/** A path parameter after its one decoding: its text, or the proof that it cannot be read as sent. */
export type DecodedPathParameter = { readable: true; value: string } | { readable: false; raw: string };

/**
 * The one decoding of a path parameter. API Gateway REST hands `path` and `pathParameters` to the
 * function still percent-encoded, as the client sent them; only HTTP APIs decode. AWS's page on the
 * proxy event ("Lambda proxy integrations in API Gateway", input format,
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/set-up-lambda-proxy-integrations.html)
 * does not say it: live captures do (github.com/hotsock/voker, vokerhttp/testdata/apigwv1-request.json
 * and ingress-paths.json, relied on in github.com/middleapi/standard-server/pull/93;
 * github.com/dherault/serverless-offline/issues/265: `test%7Cid` reaches the function as sent).
 * So a handler decodes, exactly once: `%2F` is a slash inside the value, `%25` a percent sign,
 * and `+` stays a plus (a path is not a form; github.com/dherault/serverless-offline/issues/638).
 * A malformed escape (`%E9` alone is not UTF-8, `%` alone is no escape) is not an error of ours:
 * each reader answers it as its route's 404 or 400.
 */
export function decodePathParameter(raw: string): DecodedPathParameter {
  try {
    return { readable: true, value: decodeURIComponent(raw) };
  } catch {
    return { readable: false, raw };
  }
}

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
