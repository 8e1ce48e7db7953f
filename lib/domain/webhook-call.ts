import { derivedTimeOrderedId } from '../storage/table-items';
import { messages as catalogue } from '../messages';
import type { BusinessMetric, MetricDimension } from '../observability';
import { maxWebhookBodyBytes } from '../routes';
import {
  InvalidInputError,
  type PhoneSettings,
  type WebhookCall,
  type WebhookFields,
  type WebhookRoute,
} from './model';

/** The webhook call being answered, as its journal entry will name it (docs/api.md#webhook-call-journal). */
export type WebhookCallContext = {
  id: string;
  at: string;
  route: WebhookRoute;
  workspaceId: string;
  endpointId: string;
  requestId: string | null;
  /** The status a success is answered with (the HTTP layer's to say), written into its entry. */
  successStatus: number;
  /**
   * The workspace's phone settings, as the authorizer read them on the endpoint item (an
   * authenticated call only; absent: the defaults). The lead webhook matches phones with them.
   */
  phone?: PhoneSettings;
};

/** What a call's journal entry says of its answer: what happened (or the error code answered), and what it names. */
export type CallOutcome = Pick<
  WebhookCall,
  'outcome' | 'record_id' | 'placement' | 'warnings' | 'pipeline_id' | 'stage_id' | 'message'
>;

/** One business metric counted (lib/observability.ts), as a value. */
export type MetricCount = {
  metric: BusinessMetric;
  dimensions?: Partial<Record<MetricDimension, string>>;
  value?: number;
};

/**
 * What an answer to a webhook call gives the journal and the metrics, as values: what the call's
 * journal entry says of it, whether that entry was already written inside the change's own
 * transaction (a call that wrote nothing else has its entry written by whoever answers it: never
 * twice, never not at all), and the business metrics it counts.
 */
export type CallReport = { journal: CallOutcome; journaledWithChange: boolean; counts: MetricCount[] };

/** What a webhook's use case answers, as a value: the answer's body, with its report. */
export type WebhookAnswer<Answer> = CallReport & { answer: Answer };

/** The journal entry of a call answered with `status` and `outcome`; the use case writes a success's with its change. */
export const callEntry = (call: WebhookCallContext, status: number, outcome: CallOutcome): WebhookCall => ({
  id: call.id,
  workspace_id: call.workspaceId,
  endpoint_id: call.endpointId,
  at: call.at,
  route: call.route,
  status,
  ...outcome,
  request_id: call.requestId,
});

/** The entry of a call that succeeds, written with the success itself. */
export const successEntry = (call: WebhookCallContext, outcome: CallOutcome): WebhookCall =>
  callEntry(call, call.successStatus, outcome);

/**
 * The report of a call answered with an error `code` and its French `message` (kept, so that the call's page shows
 * the refusal as the sender read it): its entry names nothing else, and it counts in
 * LeadsRefused / CandidatesRefused by that code. Every error answer of a webhook counts, the
 * gate's refusals of an unknown or malformed endpoint (which get no journal entry) and 5xx answers
 * included.
 */
export const refusalReport = (route: WebhookRoute, code: string, message?: string): CallReport => ({
  journal: {
    outcome: code,
    record_id: null,
    placement: null,
    warnings: [],
    ...(message === undefined ? {} : { message }),
  },
  journaledWithChange: false,
  counts: [{ metric: route === 'recruitment' ? 'CandidatesRefused' : 'LeadsRefused', dimensions: { code } }],
});

/**
 * The report of an answer replayed under its Idempotency-Key, from the outcome kept with it: the
 * first call's entry said it, this call's entry says it again; a replayed refusal counts again,
 * being answered again, and a replayed success counts only as a replay (IdempotentReplays). An
 * answer kept before its outcome was (recorded by the version before this one, within the 24
 * hours a record lives) is reported by its status alone.
 */
export function replayReport(route: WebhookRoute, status: number, kept: CallOutcome | undefined): CallReport {
  const failed = status >= 400;
  const journal = kept ?? { outcome: String(status), record_id: null, placement: null, warnings: [] };
  return failed
    ? { ...refusalReport(route, journal.outcome), journal }
    : { journal, journaledWithChange: false, counts: [] };
}

/**
 * Calls refused for their token (wrong or missing token, disabled webhook) cannot flood the
 * journal (docs/api.md#webhook-call-journal): per endpoint, route and minute, the first ones get an entry each, every
 * later one is counted into one entry of that minute.
 */
export const refusalsJournaledOneByOne = 10;

/** The UTC minute of a call, as the refusals are counted: its key (`YYYY-MM-DDTHH:MM`) and its last millisecond. */
export type RefusalMinute = { minute: string; minuteEnd: Date };

export function refusalMinuteOf(call: Pick<WebhookCall, 'at'>): RefusalMinute {
  const at = new Date(call.at);
  const start = Math.floor(at.getTime() / 60_000) * 60_000;
  return { minute: new Date(start).toISOString().slice(0, 16), minuteEnd: new Date(start + 59_999) };
}

/** Whether the call of this rank in its minute gets an entry of its own (else it is counted). */
export const journaledOneByOne = (rank: number): boolean => rank <= refusalsJournaledOneByOne;

/**
 * The entry that counts a minute's refusals past the 10th, as the call `call` would create it: its
 * id is derived from the endpoint, the route and the minute, so every counted call of that minute
 * reaches the same entry without reading it, and takes the time of the minute's last millisecond,
 * so that it sorts after every call of its minute and is listed first from its first count. `at`
 * and `request_id` stay those of the call (the first to create it keeps them).
 */
export function countingEntryOf(call: WebhookCall): Omit<WebhookCall, 'count'> {
  const { minute, minuteEnd } = refusalMinuteOf(call);
  return {
    ...call,
    id: derivedTimeOrderedId(minuteEnd, `refused#${call.endpoint_id}#${call.route}#${minute}`),
  };
}

/** A kept body is cut at 64 KB (docs/api.md#webhook-call-journal). */
export const keptBodyMaxBytes = 64 * 1024;

/**
 * The body of a call as the journal keeps it: as received (text, or base64 when API Gateway
 * encoded it) up to 64 KB of bytes; longer, its first 64 KB, cut before a UTF-8 character that
 * would not fit whole (a continuation byte is 10xxxxxx, and a character has at most three), so
 * that the text shown is the text received.
 */
export function keptBodyOf(body: string, base64: boolean): { body: string; truncated: boolean } {
  const bytes = Buffer.from(body, base64 ? 'base64' : 'utf8');
  if (bytes.length <= keptBodyMaxBytes) return { body, truncated: false };
  let end = keptBodyMaxBytes;
  for (let back = 0; back < 3 && ((bytes[end] ?? 0) & 0xc0) === 0x80; back += 1) end -= 1;
  const kept = bytes.subarray(0, end);
  return { body: kept.toString(base64 ? 'base64' : 'utf8'), truncated: true };
}

/**
 * Webhook bodies are read by the service itself, never refused for their Content-Type: JSON
 * whatever the header says, except a form-encoded body ("Webhooks by Zapier" sends those by
 * default), read as a flat object. A repeated key becomes a list (`tag_ids`), and
 * `answers[Question]=Réponse` fills the `answers` object. Here, beside the call it belongs to: the webhook
 * handlers read their body with it, and the journal's view of a kept body (lib/settings/webhook-call-reads.ts) too.
 */
export function readWebhookBody(event: {
  body: string | null;
  isBase64Encoded: boolean;
  headers: Record<string, string | undefined>;
}): WebhookFields {
  const raw = event.isBase64Encoded && event.body ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  if (raw && Buffer.byteLength(raw, 'utf8') > maxWebhookBodyBytes)
    throw new InvalidInputError(catalogue.body.webhookTooLarge(maxWebhookBodyBytes / 1024));
  if (isFormEncoded(event.headers)) return readForm(raw ?? '');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw ?? '');
  } catch (error) {
    throw new InvalidInputError(catalogue.body.webhookUnreadable, undefined, { cause: error });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new InvalidInputError(catalogue.body.webhookUnreadable);
  }
  return parsed as WebhookFields;
}

function isFormEncoded(headers: Record<string, string | undefined>): boolean {
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
