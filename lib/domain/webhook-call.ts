import type { WebhookCall, WebhookRoute } from '../storage/records';
import type { PhoneSettings } from '../storage/workspace-config';

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
