import { derivedTimeOrderedId } from '../ids';
import type { PhoneSettings, WebhookCall, WebhookRoute } from './model';

/**
 * The webhook call being answered, as its journal entry will name it (docs/api.md#webhook-call-journal).
 * A use case that writes journals the call inside its own transaction (the entry of a success,
 * built by `successEntry`) and marks it `journaled`; whoever answers the call journals it otherwise
 * (a refusal, an error, a replayed answer, a success that wrote nothing): never twice, never not at all.
 */
export type WebhookCallContext = {
  id: string;
  at: string;
  route: WebhookRoute;
  workspaceId: string;
  endpointId: string;
  requestId: string | null;
  /** The status a success is answered with (the HTTP layer's to say), written into its entry. */
  successStatus: number;
  journaled: boolean;
  /**
   * The workspace's phone settings, as the authorizer read them on the endpoint item (an
   * authenticated call only; absent: the defaults). The lead webhook matches phones with them.
   */
  phone?: PhoneSettings;
};

export type CallOutcome = {
  outcome: 'created' | 'existing';
  record_id: string;
  placement: string | null;
  warnings: string[];
};

/** The journal entry of a call that succeeds, written with the success itself. */
export const successEntry = (call: WebhookCallContext, outcome: CallOutcome): WebhookCall => ({
  id: call.id,
  workspace_id: call.workspaceId,
  endpoint_id: call.endpointId,
  at: call.at,
  route: call.route,
  status: call.successStatus,
  ...outcome,
  request_id: call.requestId,
});

/**
 * Calls refused for their token (wrong or missing token, disabled webhook) cannot flood the
 * journal (decisions 6.3): per endpoint, route and minute, the first ones get an entry each, every
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

/** A kept body is cut at 64 KB (decisions 6.3). */
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
