import type { MessageQueue } from '../events/ports';
import type { Deps } from '../../storage/client';

/**
 * One follow-up to send once its time has come: a message of the follow-up queue. `follow_up_at` is the prospect's
 * `next_follow_up_at` as stored (ISO 8601 UTC with milliseconds, as every writer stores it), which the send compares
 * with the prospect's.
 */
export type FollowUpDueMessage = { workspace_id: string; prospect_id: string; follow_up_at: string };

/** The follow-up queue: SQS on AWS (lib/queue), the local stand-in in `npm start` (tools/local). */
export type FollowUpQueue = MessageQueue<FollowUpDueMessage>;

/** What the sweep, the stream handler's schedule step and the send of a follow-up depend on. */
export type FollowUpDeps = Deps & { followUpQueue: FollowUpQueue };
