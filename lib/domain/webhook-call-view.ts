import { InvalidInputError, type WebhookFields } from './model';
import { readWebhookBody } from './webhook-call';
import type { WebhookCallItem } from '../storage/table-items';

/**
 * One journaled call as the admin commands print it (docs/api.md#webhook-call-journal): never its body; `count`, how
 * many calls the entry stands for (more than 1 only for the entry counting a minute's refusals
 * past the 10th); `body_truncated`, whether the kept body was cut at 64 KB.
 */
export type WebhookCallView = Pick<
  WebhookCallItem,
  'id' | 'at' | 'route' | 'status' | 'outcome' | 'record_id' | 'placement' | 'warnings' | 'request_id'
> & {
  pipeline_id: string | null;
  stage_id: string | null;
  message: string | null;
  count: number;
  body_truncated: boolean;
};

/**
 * The kept body read as the webhook reads it, `{ raw }` when the webhook refuses to read it or it
 * was cut at 64 KB (the text kept), null when none was kept.
 */
export type KeptBody = WebhookFields | { raw: string } | null;

export const callView = (call: WebhookCallItem): WebhookCallView => ({
  id: call.id,
  at: call.at,
  route: call.route,
  status: call.status,
  outcome: call.outcome,
  record_id: call.record_id ?? null,
  placement: call.placement ?? null,
  pipeline_id: call.pipeline_id ?? null,
  stage_id: call.stage_id ?? null,
  warnings: call.warnings ?? [],
  message: call.message ?? null,
  request_id: call.request_id ?? null,
  count: call.count ?? 1,
  body_truncated: call.body_truncated === true,
});

/** One call with its kept body, read as the webhook reads it: `webhook call`'s document, and an export's. */
export type CallDocument = { call: WebhookCallView; body: KeptBody };

export const callDocument = (call: WebhookCallItem): CallDocument => ({ call: callView(call), body: keptBody(call) });

/** A kept body as text: one that was not UTF-8 is kept in base64 (docs/api.md#webhook-call-journal). */
const bodyText = (call: WebhookCallRequest): string =>
  call.body_base64 === true ? Buffer.from(call.body ?? '', 'base64').toString('utf8') : (call.body ?? '');

export const contentTypeHeader = (call: WebhookCallRequest): Record<string, string> =>
  call.content_type ? { 'Content-Type': call.content_type } : {};

/**
 * The webhook's own reader (readWebhookBody, lib/domain/webhook-call.ts); a body it refuses, or one cut at 64 KB
 * (never read: its end is missing), is shown as the text kept.
 */
function keptBody(call: WebhookCallItem): KeptBody {
  if (call.body === undefined) return null;
  if (call.body_truncated === true) return { raw: bodyText(call) };
  try {
    return readWebhookBody({
      body: call.body,
      isBase64Encoded: call.body_base64 === true,
      headers: contentTypeHeader(call),
    });
  } catch (error) {
    if (error instanceof InvalidInputError) return { raw: bodyText(call) };
    throw error;
  }
}

/** What a webhook call event carries of a request: a journaled call's kept body, or a test's. */
export type WebhookCallRequest = Pick<WebhookCallItem, 'body' | 'body_base64' | 'content_type'>;
