import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { WebhookFields } from '../domain/webhook-call';
import { InvalidInputError } from '../domain/errors';
import { messages } from '../messages';

/** Bodies over 256 KB are refused with the route's 400 (docs/api.md#webhook-bodies). */
export const maxWebhookBodyBytes = 256 * 1024;

/**
 * Webhook bodies are read by the service itself, never refused for their Content-Type: JSON
 * whatever the header says, except a form-encoded body ("Webhooks by Zapier" sends those by
 * default), read as a flat object. A repeated key becomes a list (`tag_ids`), and
 * `answers[Question]=Réponse` fills the `answers` object.
 */
export function readWebhookBody(
  event: Pick<APIGatewayProxyEvent, 'body' | 'isBase64Encoded' | 'headers'>,
): WebhookFields {
  const raw = event.isBase64Encoded && event.body ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  if (raw && Buffer.byteLength(raw, 'utf8') > maxWebhookBodyBytes)
    throw new InvalidInputError(messages.body.webhookTooLarge(maxWebhookBodyBytes / 1024));
  if (isFormEncoded(event.headers)) return readForm(raw ?? '');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw ?? '');
  } catch (error) {
    throw new InvalidInputError(messages.body.webhookUnreadable, undefined, { cause: error });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new InvalidInputError(messages.body.webhookUnreadable);
  }
  return parsed as WebhookFields;
}

function isFormEncoded(headers: APIGatewayProxyEvent['headers']): boolean {
  const name = Object.keys(headers ?? {}).find((candidate) => candidate.toLowerCase() === 'content-type');
  const value = name === undefined ? '' : (headers[name] ?? '');
  return value.split(';')[0]?.trim().toLowerCase() === 'application/x-www-form-urlencoded';
}

/** Built through Maps and Object.fromEntries, so a key like `__proto__` stays a plain field. */
function readForm(raw: string): WebhookFields {
  const fields = new Map<string, string | string[]>();
  const answers = new Map<string, string>();
  for (const [key, value] of new URLSearchParams(raw)) {
    const answer = /^answers\[(.*)\]$/s.exec(key);
    if (answer) {
      answers.set(answer[1] ?? '', value);
      continue;
    }
    const name = key.endsWith('[]') ? key.slice(0, -2) : key;
    const previous = fields.get(name);
    fields.set(name, previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value]);
  }
  const result: WebhookFields = Object.fromEntries(fields);
  if (answers.size > 0) return { ...result, answers: Object.fromEntries(answers) };
  return result;
}
