import { z } from 'zod';
import type { LeadResult } from '../../../lib/domain/lead/ingest-lead';
import type { AssignableMemberListing, FieldDefinition, PipelineListing, MemberRole } from '../../../lib/domain/model';
import { fieldTypes } from '../../../lib/domain/fields/field-definitions';
import { retentionMonthsRange } from '../../../lib/domain/retention';
import type { NoteResult } from '../../../lib/domain/prospect/add-note';
import type { TagOutcome } from '../../../lib/domain/prospect/change-tag';
import type { PatchResult } from '../../../lib/domain/prospect/update-prospect';
import type { ProspectView } from '../../../lib/settings/prospects';
import type { ChangeLogEntryView, NoteView, ProspectReadView } from '../../../lib/domain/prospect/read-views';
import type { findProspects } from '../../../lib/domain/prospect/find-prospects';
import type { ProspectList } from '../../../lib/domain/prospect-list/list-prospects';
import type { ApplicationResult } from '../../../lib/domain/recruitment/receive-application';
import type { ErasureAnswer } from '../../../lib/domain/erasure/erase-record';
import type { findCandidates } from '../../../lib/domain/recruitment/find-candidates';
import type { ApiKeyView } from '../../../lib/settings/api-key-list';
import type { CreatedApiKey } from '../../../lib/settings/api-keys';
import type { TagView } from '../../../lib/settings/tag-list';
import type { WebhookStatusView } from '../../../lib/settings/webhook-status';
import type { WebhookTokenView } from '../../../lib/settings/webhooks';
import type { WorkspaceView } from '../../../lib/settings/workspace-view';
import type {
  refreshSession,
  signIn,
  startPasswordReset,
  WorkspaceOfPerson,
} from '../../../lib/domain/session/session';

import type { AuditEntryView } from '../../../lib/settings/audit';
import type { MemberView } from '../../../lib/settings/member-list';
import type { InvitedMemberView } from '../../../lib/settings/members';

import type { pageOfCalls, showCall } from '../../../lib/settings/webhook-call-reads';
import type { replayCall } from '../../../lib/settings/webhook-call-replay';
import type {
  changeSubscription,
  createSubscription,
  deleteSubscription,
  rotateSubscriptionSecret,
} from '../../../lib/settings/subscriptions';
import type { listSubscriptions } from '../../../lib/settings/subscription-list';
import type { pageOfDeliveries } from '../../../lib/settings/subscription-deliveries';
import type { DeliveryView } from '../../../lib/domain/events/delivery-view';
import { eventTypes } from '../../../lib/domain/events/event-types';
import type { ExportLink } from '../../../lib/domain/export/export-store';
import type { CandidateExport } from '../../../lib/domain/export/person-exports';
import type { ProspectExport } from '../../../lib/domain/export/person-exports';

type SameType<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * A response schema is accepted only if its output type is exactly the type the use case
 * returns: tsc fails when one changes without the other, so the document cannot drift.
 */
const describing =
  <T>() =>
  <S extends z.ZodType>(schema: SameType<z.output<S>, T> extends true ? S : never): S =>
    schema;

const id = z.uuid();
const timestamp = z.iso.datetime().meta({ description: 'ISO 8601, UTC (Z).' });
const tag = z.strictObject({ id, name: z.string() });

/** A custom field's value as answered (docs/api.md#custom-fields). */
const fieldValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);

/** A prospect's `fields`, in every view of it. */
const prospectFields = z.record(z.string(), fieldValue.nullable()).meta({
  description:
    'Every custom field the workspace defines, by key, in creation order: its value (text, number, boolean, ' +
    "`YYYY-MM-DD` date, option, or options of a multiple choice in the definition's order), or null when it has none.",
});

export const pipelineListingSchema = describing<PipelineListing>()(
  z.strictObject({
    pipelines: z.array(
      z.strictObject({
        id,
        name: z.string(),
        is_default: z.boolean(),
        stages: z.array(
          z.strictObject({
            id,
            name: z.string(),
            type: z.string().meta({ description: 'Values that appear: `Appointment Setting`, `Follow up`.' }),
            order: z.int().min(0).meta({ description: 'Position in the pipeline, from 0.' }),
          }),
        ),
      }),
    ),
    tags: z.array(tag),
  }),
);

export const assignableMemberListingSchema = describing<AssignableMemberListing>()(
  z.strictObject({
    members: z.array(z.strictObject({ id, name: z.string() })).meta({
      description: 'Every member, removed ones included (their ids stay valid setters and closers), sorted by name.',
    }),
  }),
);

export const patchResultSchema = describing<PatchResult>()(
  z.strictObject({
    id,
    pipeline_id: id.nullable().meta({ description: 'Null for a prospect on no board until a stage is set.' }),
    stage_id: id.nullable(),
    setter_id: id.nullable(),
    closer_id: id.nullable(),
    next_follow_up_at: timestamp.nullable(),
    fields: prospectFields,
    changed: z.array(z.string()).meta({
      description:
        'What this call changed: `stage`, `setter`, `closer`, `follow_up`, `fields.<key>` for a custom field. A ' +
        'field sent with the value it already had is not listed.',
    }),
  }),
);

export const noteResultSchema = describing<NoteResult>()(
  z.strictObject({
    id,
    created_at: timestamp.meta({ description: 'Reception time, ISO 8601, UTC (Z).' }),
    warnings: z.array(z.string()).meta({ description: 'French sentences: a `date` not kept, and why.' }),
  }),
);

export const tagOutcomeSchema = describing<TagOutcome>()(
  z.strictObject({ outcome: z.enum(['added', 'already_present', 'removed', 'absent']), tag }),
);

export const leadResultSchema = describing<LeadResult>()(
  z.strictObject({
    status: z.enum(['created', 'existing']),
    prospect_id: id,
    pipeline_id: id.nullable().meta({ description: 'Where the prospect really is.' }),
    stage_id: id.nullable().meta({ description: 'Where the prospect really is.' }),
    placement: z.enum(['demande', 'defaut', 'existant', 'aucun']),
    tags_applied: z.array(tag),
    warnings: z.array(z.string()).meta({
      description:
        'French sentences: what was not applied as sent (unknown or ignored field, unknown tag, pipeline or stage not found, known contact not moved).',
    }),
  }),
);

/** A tag the workspace no longer names keeps its place on the prospect, with a null name. */
const prospectTag = z.strictObject({
  id,
  name: z.string().nullable().meta({ description: 'Null for a tag the workspace no longer has.' }),
});

/** GET /prospects/{prospect_id}, and each element of a look-up (docs/api.md#get-a-prospect). */
export const prospectSchema = describing<ProspectReadView>()(
  z.strictObject({
    id,
    pipeline_id: id.nullable().meta({ description: 'Null for a prospect on no board.' }),
    stage_id: id.nullable().meta({ description: 'Null for a prospect on no board.' }),
    setter_id: id.nullable(),
    closer_id: id.nullable(),
    next_follow_up_at: timestamp.nullable(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    email: z.string().nullable().meta({ description: 'As sent (trimmed).' }),
    phone: z.string().nullable().meta({ description: 'As sent (trimmed).' }),
    social_url: z.string().nullable(),
    source: z.string().nullable().meta({ description: 'Origin, kept from the first submission.' }),
    tags: z.array(prospectTag).meta({ description: 'By name, in French alphabetical order.' }),
    fields: prospectFields,
    created_at: timestamp,
    updated_at: timestamp.meta({ description: 'Last write by the API, a webhook or an undo; ISO 8601, UTC (Z).' }),
  }),
);

/** GET /prospects?email=…: the prospect the lead webhook would match, or none (docs/api.md#find-a-prospect-by-contact). */
export const prospectLookupSchema = describing<Awaited<ReturnType<typeof findProspects>>>()(
  z.strictObject({
    prospects: z.array(prospectSchema).max(1).meta({ description: 'The matching prospect, or none: 0 or 1 element.' }),
  }),
);

/** GET /prospects without a contact: a page of the list (docs/api.md#lists-of-prospects). */
export const prospectPageSchema = describing<ProspectList>()(
  z.strictObject({
    prospects: z.array(prospectSchema).meta({
      description: 'In the order of `sort`, at most `limit`: fewer, none even, while `next_cursor` is not null.',
    }),
    next_cursor: z
      .string()
      .nullable()
      .meta({
        description:
          'Opaque: pass it as `cursor`, with the same query, to read the next page. Null once no prospect follows: ' +
          'read until it is null.',
      }),
  }),
);

/** GET /prospects, either use: which one the request's parameters chose, the look-up by contact or the list. */
export const prospectSearchSchema = describing<Awaited<ReturnType<typeof findProspects>> | ProspectList>()(
  z.union([prospectLookupSchema, prospectPageSchema]),
);

const nextCursor = z.string().nullable().meta({
  description:
    'Opaque: pass it as `cursor` to read the next page of this same list. Null when no item follows (never an empty last page).',
});

/** GET /prospects/{prospect_id}/notes (docs/api.md#list-notes). */
const noteSchema = z.strictObject({
  id,
  content: z.string().meta({ description: 'Plain text, exactly as sent.' }),
  date: timestamp.meta({
    description: 'The date the note is about: backfilled, else the reception time. ISO 8601, UTC (Z).',
  }),
  created_at: timestamp.meta({ description: 'Reception time, ISO 8601, UTC (Z): the order of the list.' }),
});

export const noteListSchema = describing<{ notes: NoteView[]; next_cursor: string | null }>()(
  z.strictObject({ notes: z.array(noteSchema), next_cursor: nextCursor }),
);

/** One change-log entry (docs/api.md#change-log): of a list, and of an undo's answer. */
const changeLogEntrySchema = z.strictObject({
  id,
  prospect_id: id,
  key_id: id.meta({ description: 'The API key that made the change.' }),
  field: z
    .union([
      z.enum(['stage', 'setter', 'closer', 'follow_up', 'tags', 'note']),
      z.templateLiteral(['fields.', z.string()]),
    ])
    .meta({ description: "The field changed; `fields.<key>` for a custom field's value." }),
  before: fieldValue.nullable().meta({
    description:
      "Stage id, member id, follow-up timestamp, the tag id removed, or a custom field's value as answered; null " +
      'when there was none (and for `note`).',
  }),
  after: fieldValue.nullable().meta({
    description:
      "Stage id, member id, follow-up timestamp, the tag id added, the note id, or a custom field's value as " +
      'answered; null for none.',
  }),
  at: timestamp.meta({ description: 'When the change was made, ISO 8601, UTC (Z): the order of the list.' }),
  undone_at: timestamp.nullable().meta({ description: 'When a team member undid it; null if not undone.' }),
});

/** GET /prospects/{prospect_id}/changes (docs/api.md#list-changes, docs/api.md#change-log). */
export const changeListSchema = describing<{ changes: ChangeLogEntryView[]; next_cursor: string | null }>()(
  z.strictObject({ changes: z.array(changeLogEntrySchema), next_cursor: nextCursor }),
);

/**
 * POST /workspaces/{workspace_id}/changes/{entry_id}/undo: the `changelog undo` document
 * (docs/api.md#admin-command-line, #settings-api).
 */
export const changeUndoneSchema = describing<{ entry: ChangeLogEntryView; prospect: ProspectView }>()(
  z.strictObject({
    entry: changeLogEntrySchema,
    prospect: z
      .strictObject({
        id,
        pipeline_id: id.nullable(),
        stage_id: id.nullable(),
        setter_id: id.nullable(),
        closer_id: id.nullable(),
        next_follow_up_at: timestamp.nullable(),
        first_name: z.string().nullable(),
        last_name: z.string().nullable(),
        email: z.string().nullable(),
        phone: z.string().nullable(),
        social_url: z.string().nullable(),
        source: z.string().nullable(),
        fields: prospectFields,
        version: z.int().min(1).meta({ description: 'Raised by every write, the undo included.' }),
        created_at: timestamp,
        updated_at: timestamp,
      })
      .meta({ description: 'The prospect after the undo, as `prospect show` prints it.' }),
  }),
);

export const applicationResultSchema = describing<ApplicationResult>()(
  z.strictObject({ ok: z.literal(true), talent_id: id, action: z.enum(['created', 'existing']) }),
);

/** GET /workspaces/{workspace_id} (docs/api.md#settings-api): `workspace show`'s document and the caller's role. */
export const workspaceDetailSchema = describing<WorkspaceView & { role: MemberRole }>()(
  z.strictObject({
    id,
    name: z.string(),
    phone_matching: z.enum(['exact', 'e164']).meta({ description: 'How the lead webhook compares phones.' }),
    phone_region: z.string().meta({ description: 'Region of numbers written without a country code (ISO 3166).' }),
    time_zone: z.string().meta({
      description:
        'The IANA time zone in which the workspace’s days begin and end (`Europe/Paris` until an admin sets another: ' +
        '`PATCH /workspaces/{workspace_id}`).',
    }),
    retention_months: z
      .int()
      .min(retentionMonthsRange.min)
      .max(retentionMonthsRange.max)
      .nullable()
      .meta({
        description:
          'How many calendar months the workspace keeps a prospect or a candidate after its last change; null (until ' +
          'an admin sets a number: `PATCH /workspaces/{workspace_id}`): kept until erased.',
      }),
    created_at: timestamp,
    role: z.enum(['admin', 'member']).meta({ description: 'The caller’s role in this workspace.' }),
  }),
);

export const settingsTagSchema = describing<TagView>()(tag);
export const tagListSchema = describing<{ tags: TagView[] }>()(z.strictObject({ tags: z.array(tag) }));

/** A custom field's definition (docs/api.md#custom-fields), as the settings API and the Prospect API answer it. */
const fieldDefinition = z.strictObject({
  key: z.string().meta({ description: 'The name the field is stored, sent and filtered under; it never changes.' }),
  label: z.string().meta({ description: 'The name people read.' }),
  type: z.enum(fieldTypes),
  options: z
    .array(z.string())
    .nullable()
    .meta({ description: '`choice` and `multi_choice`: the options, in their order; null for the other types.' }),
  aliases: z.array(z.string()).meta({ description: 'Other names a form may send the field under.' }),
  update: z.enum(['always', 'if_empty']).meta({
    description:
      'What a lead of a known contact does to a value already set: replaces it, or only fills it when empty.',
  }),
});
export const fieldDefinitionSchema = describing<FieldDefinition>()(fieldDefinition);
export const fieldListSchema = describing<{ fields: FieldDefinition[] }>()(
  z.strictObject({
    fields: z.array(fieldDefinition).meta({ description: 'The live fields, in the order they were created.' }),
  }),
);
/** POST …/prospects/{p}/erase, …/candidates/{t}/erase (docs/api.md#erasure-export-and-retention). */
export const erasedSchema = describing<ErasureAnswer>()(
  z.strictObject({
    id,
    erased_at: timestamp.meta({ description: 'When it was erased; its copies go within minutes.' }),
  }),
);

export const deletedFieldSchema = describing<{ key: string; deleted: true }>()(
  z.strictObject({ key: z.string(), deleted: z.literal(true) }),
);

const scopes = z.array(z.string()).meta({ description: 'The scopes of the key; `*`: all.' });

/** GET /api-keys: the `apikey list` document, never a value. */
export const apiKeyListSchema = describing<{ api_keys: ApiKeyView[] }>()(
  z.strictObject({
    api_keys: z.array(
      z.strictObject({
        id,
        name: z.string(),
        scopes,
        created_at: timestamp,
        revoked_at: timestamp.nullable().meta({ description: 'Null while the key works.' }),
      }),
    ),
  }),
);

/** POST /api-keys: the `apikey create` document, the value once. */
export const createdApiKeySchema = describing<CreatedApiKey>()(
  z.strictObject({
    id,
    name: z.string(),
    scopes,
    secret: z.string().meta({ description: 'The key (`crm_key_…`): shown in this answer only.' }),
  }),
);

export const revokedApiKeySchema = describing<{ id: string; revoked_at: string }>()(
  z.strictObject({ id, revoked_at: timestamp }),
);

const webhookStatusFields = {
  endpoint_id: id,
  url: z.string().meta({ description: 'The lead webhook’s URL, to give the form tool with the token.' }),
  active: z.boolean(),
  last_call_at: timestamp.nullable().meta({ description: 'The last authenticated call; null before the first.' }),
};

/** PATCH /webhook: the `webhook status` document. */
export const webhookStatusSchema = describing<WebhookStatusView>()(z.strictObject(webhookStatusFields));

/** GET /webhook: the `webhook status` document and the recruitment webhook's URL. */
export const webhookDetailSchema = describing<WebhookStatusView & { recruitment_url: string }>()(
  z.strictObject({
    ...webhookStatusFields,
    recruitment_url: z.string().meta({ description: 'The recruitment webhook’s URL: the same endpoint and token.' }),
  }),
);

/** POST /webhook/token: the `webhook generate` document, the token once. */
export const webhookTokenSchema = describing<WebhookTokenView>()(
  z.strictObject({
    endpoint_id: id,
    url: webhookStatusFields.url,
    token: z.string().meta({ description: 'The token (`crm_whk_…`): shown in this answer only.' }),
  }),
);

/** A workspace of the signed-in person, with their role and member id there. */
const workspaceOfPerson = z.strictObject({
  id,
  name: z.string(),
  role: z.enum(['admin', 'member']),
  member_id: id.meta({ description: "The person's member id in this workspace." }),
});

const accessToken = z.string().meta({
  description: 'A JWT, sent as `Authorization: Bearer <access token>` to the settings API; never in the URL.',
});
const expiresIn = z.int().min(1).meta({ description: 'Seconds the access token stays valid (an hour).' });

/** POST /session (docs/api.md#sign-in). */
export const sessionSchema = describing<Awaited<ReturnType<typeof signIn>>>()(
  z.strictObject({
    access_token: accessToken,
    refresh_token: z.string().meta({
      description: 'For `POST /session/refresh`, 30 days or until `DELETE /session`. Keep it secret.',
    }),
    expires_in: expiresIn,
    member: z.strictObject({
      email: z.string().meta({ description: 'The address signed in with, in lowercase.' }),
      name: z.string().nullable().meta({ description: 'The name a workspace gives the person; null in none.' }),
    }),
    workspaces: z.array(workspaceOfPerson),
  }),
);

/** POST /session/refresh. */
export const refreshedSessionSchema = describing<Awaited<ReturnType<typeof refreshSession>>>()(
  z.strictObject({ access_token: accessToken, expires_in: expiresIn }),
);

/** POST /password-reset: `code` only where the service may answer what it delivers (the local run). */
export const passwordResetStartedSchema = describing<Awaited<ReturnType<typeof startPasswordReset>>>()(
  z.strictObject({
    code: z.string().optional().meta({
      description: 'Only from the local API (`npm start`): the code the e-mail carries. Never when deployed.',
    }),
  }),
);

/** GET /workspaces. */
export const myWorkspacesSchema = describing<{ workspaces: WorkspaceOfPerson[] }>()(
  z.strictObject({ workspaces: z.array(workspaceOfPerson) }),
);

/** A member of a workspace (docs/api.md#settings-api), as `GET …/members` lists it. */
const memberFields = {
  id,
  email: z.string().nullable().meta({ description: 'The address the member signs in with; null: none, no sign-in.' }),
  name: z.string(),
  role: z.enum(['admin', 'member']),
  can_sign_in: z.boolean().meta({ description: 'False for a member removed from the workspace or without an e-mail.' }),
};

export const memberSchema = describing<MemberView>()(z.strictObject(memberFields));

/** GET /workspaces/{w}/members. */
export const memberListSchema = describing<{ members: MemberView[] }>()(
  z.strictObject({ members: z.array(memberSchema) }),
);

/**
 * POST /workspaces/{w}/members and …/invite: whether the person was invited, and `temporary_password` only where the
 * service may answer it (the local run).
 */
export const invitedMemberSchema = describing<InvitedMemberView>()(
  z.strictObject({
    ...memberFields,
    invited: z.boolean().meta({
      description:
        'True: the person got a new temporary password (e-mailed when deployed). False: the person already chose ' +
        'a password (a member of another workspace, for one): nothing was sent, and they sign in with it as before.',
    }),
    temporary_password: z
      .string()
      .optional()
      .meta({
        description:
          'Only from the local API (`npm start`), and only with `invited: true`: the temporary password of the ' +
          'invitation. Never when deployed, where the identity provider e-mails it.',
      }),
  }),
);

/** DELETE /workspaces/{w}/members/{m}. */
export const removedMemberSchema = describing<{ id: string; can_sign_in: false }>()(
  z.strictObject({ id, can_sign_in: z.literal(false) }),
);

/** GET /workspaces/{w}/audit (docs/api.md#audit-log). */
export const auditPageSchema = describing<{ entries: AuditEntryView[]; next_cursor: string | null }>()(
  z.strictObject({
    entries: z.array(
      z.strictObject({
        id,
        at: timestamp,
        member_id: id.nullable().meta({ description: 'The member who acted; null for the admin command line.' }),
        action: z.enum([
          'api_key.created',
          'api_key.revoked',
          'webhook.token_generated',
          'webhook.enabled',
          'webhook.disabled',
          'webhook_call.replayed',
          'member.invited',
          'member.role_changed',
          'member.removed',
          'tag.created',
          'tag.renamed',
          'field.created',
          'field.changed',
          'field.deleted',
          'subscription.created',
          'subscription.enabled',
          'subscription.disabled',
          'subscription.events_changed',
          'subscription.deleted',
          'subscription.secret_rotated',
          'delivery.redelivered',
          'change.undone',
          'prospect.erased',
          'candidate.erased',
          'workspace.time_zone_changed',
          'workspace.retention_changed',
          'prospect.exported',
          'candidate.exported',
        ]),
        target_id: z
          .string()
          .nullable()
          .meta({
            description:
              'The id of what changed (an API key, a member, the workspace for `workspace.*`…); a custom field’s key ' +
              'for `field.*`.',
          }),
        summary: z.string().meta({ description: 'What happened, in French; never a secret.' }),
      }),
    ),
    next_cursor: nextCursor,
  }),
);

/**
 * `details` names the field at fault: the body's, a query parameter (`query` when the look-up's contact
 * parameters as a whole are wrong), or the Idempotency-Key header.
 */
const errorDetails = z.strictObject({ field: z.string(), message: z.string() });

/** Every route but the lead webhook: Prospect API, recruitment webhook, settings API (docs/api.md#error-bodies). */
export const standardErrorSchema = (code: string) =>
  z.strictObject({
    error: z.strictObject({
      code: z.literal(code),
      message: z.string().meta({ description: 'A French sentence.' }),
      details: errorDetails.optional(),
    }),
  });

/** Lead webhook (docs/api.md#lead-webhook-errors). */
export const leadErrorSchema = (code: string) =>
  z.strictObject({ error: z.literal(code), message: z.string().meta({ description: 'A French sentence.' }) });

/** One journaled webhook call (docs/api.md#webhook-call-journal), never its body. */
const webhookCall = z.strictObject({
  id,
  at: timestamp.meta({ description: 'When the call was received (the first one, for an entry that counts several).' }),
  route: z.enum(['ingest-lead', 'recruitment']),
  status: z.int().meta({ description: 'The HTTP status answered; 400 or more: a failed call.' }),
  outcome: z.string().meta({ description: '`created`, `existing`, or the error code answered.' }),
  record_id: id.nullable().meta({ description: 'The prospect or talent of the call; null when none.' }),
  placement: z.string().nullable(),
  pipeline_id: id.nullable().meta({
    description: 'Where a lead call left its prospect (its answer’s `pipeline_id`); null for any other call.',
  }),
  stage_id: id
    .nullable()
    .meta({ description: 'Where a lead call left its prospect (its answer’s `stage_id`); null for any other call.' }),
  warnings: z.array(z.string()),
  message: z
    .string()
    .nullable()
    .meta({ description: 'The French message the webhook answered a refusal with (`message`); null for a success.' }),
  request_id: z.string().nullable(),
  count: z
    .int()
    .min(1)
    .meta({ description: 'How many calls the entry stands for (refusals past the 10th of a minute).' }),
  body_truncated: z.boolean().meta({ description: 'The kept body was cut at 64 KB: it is not replayed.' }),
});

/** GET /webhook/calls (docs/api.md#webhook-call-journal, #settings-api). */
export const webhookCallPageSchema = describing<Awaited<ReturnType<typeof pageOfCalls>>>()(
  z.strictObject({ calls: z.array(webhookCall), next_cursor: nextCursor }),
);

/** GET /webhook/calls/{call_id}: the call and its kept body, as the webhook read it. */
const webhookCallDocument = z.strictObject({
  call: webhookCall,
  body: z
    .union([z.strictObject({ raw: z.string() }), z.record(z.string(), z.unknown())])
    .nullable()
    .meta({
      description:
        'The kept body as the webhook reads it; `{ raw }`, its text, when it was cut at 64 KB or is unreadable; null when none was kept.',
    }),
});

export const webhookCallDocumentSchema = describing<Awaited<ReturnType<typeof showCall>>>()(webhookCallDocument);

/** POST /webhook/calls/{call_id}/replay. */
export const webhookReplaySchema = describing<Awaited<ReturnType<typeof replayCall>>>()(
  z.strictObject({
    call: webhookCall.nullable().meta({ description: 'The replay, a new call of the journal.' }),
    response: z.strictObject({
      status: z.int(),
      body: z.unknown().meta({ description: "The webhook's answer, whatever it is (an error too)." }),
    }),
  }),
);

const subscriptionUrl = z.string().meta({ description: 'Where the events are POSTed.' });
const subscriptionEvents = z.array(z.string()).meta({ description: 'The event types sent.' });
const signingSecret = z.string().meta({
  description: 'The signing secret (`whsec_…`, Standard Webhooks), shown this once: keep it.',
});

/** GET /subscriptions: never a secret. */
export const subscriptionListSchema = describing<Awaited<ReturnType<typeof listSubscriptions>>>()(
  z.strictObject({
    subscriptions: z.array(
      z.strictObject({
        id,
        url: subscriptionUrl,
        events: subscriptionEvents,
        active: z.boolean(),
        created_at: timestamp,
      }),
    ),
  }),
);

/** POST /subscriptions: the secret, once. */
export const createdSubscriptionSchema = describing<Awaited<ReturnType<typeof createSubscription>>>()(
  z.strictObject({ id, url: subscriptionUrl, events: subscriptionEvents, secret: signingSecret }),
);

/** PATCH /subscriptions/{subscription_id}: the subscription as stored after the change. */
export const subscriptionStateSchema = describing<Awaited<ReturnType<typeof changeSubscription>>>()(
  z.strictObject({ id, active: z.boolean(), events: subscriptionEvents }),
);

/** DELETE /subscriptions/{subscription_id}. */
export const deletedSubscriptionSchema = describing<Awaited<ReturnType<typeof deleteSubscription>>>()(
  z.strictObject({ id, deleted: z.literal(true) }),
);

/** POST /subscriptions/{subscription_id}/secret. */
export const rotatedSecretSchema = describing<Awaited<ReturnType<typeof rotateSubscriptionSecret>>>()(
  z.strictObject({ id, secret: signingSecret }),
);

const delivery = describing<DeliveryView>()(
  z.strictObject({
    id,
    event_id: id.meta({ description: 'The event id, `webhook-id` of every attempt.' }),
    type: z.string(),
    status: z.enum(['pending', 'delivered', 'failed']),
    attempts: z.int().min(0),
    last_status_code: z.int().nullable(),
    last_error: z.string().nullable(),
    next_attempt_at: timestamp.nullable(),
    created_at: timestamp,
  }),
);

/** GET /subscriptions/{subscription_id}/deliveries. */
export const deliveryPageSchema = describing<Awaited<ReturnType<typeof pageOfDeliveries>>>()(
  z.strictObject({ deliveries: z.array(delivery), next_cursor: nextCursor }),
);

/** A candidate as its look-up and its export show it (`candidateRecordView`). */
const candidateRecord = z.strictObject({
  id,
  pipeline_id: id.meta({ description: 'The recruitment pipeline applied to.' }),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string().meta({ description: 'As the first application sent it (the look-up ignores its case).' }),
  phone: z.string().nullable(),
  position: z.string().nullable(),
  source: z.string(),
  created_at: timestamp,
});

/** GET /workspaces/{workspace_id}/candidates: a person's candidates, one per recruitment pipeline they applied to. */
export const candidateListSchema = describing<Awaited<ReturnType<typeof findCandidates>>>()(
  z.strictObject({
    candidates: z.array(candidateRecord),
  }),
);

/** A delivery with the event it carries, as posted (docs/api.md#exports). */
const deliveryWithPayload = delivery.extend({
  payload: z
    .strictObject({ type: z.enum(eventTypes), timestamp, data: z.record(z.string(), z.unknown()) })
    .meta({ description: 'The event the delivery carries, as it was posted (docs/events.md).' }),
});

const exportedAt = timestamp.meta({ description: 'When the document was built, ISO 8601, UTC (Z).' });

/** An export past 5 MB: the link to the same document (docs/api.md#exports). */
const exportLink = z.strictObject({
  exported_at: exportedAt,
  download_url: z.string().meta({
    description: 'Downloads the same document (`GET`, no credential) for 15 minutes; kept a day, then deleted.',
  }),
});

const callsOfPerson = z.array(webhookCallDocument).meta({
  description:
    'Each journaled call (30 days) that named the record, or failed with a kept body carrying its e-mail or phone, with that body, oldest first.',
});
const deliveriesOfPerson = z.array(deliveryWithPayload).meta({
  description: 'Each outbound delivery whose event is about the record (30 days), with its event, oldest first.',
});

/** GET …/prospects/{prospect_id}/export: everything kept about the prospect, or past 5 MB the link to it. */
export const prospectExportSchema = describing<ProspectExport | ExportLink>()(
  z.union([
    z.strictObject({
      exported_at: exportedAt,
      prospect: prospectSchema,
      notes: z.array(noteSchema).meta({ description: 'Every note, oldest first.' }),
      changes: z.array(changeLogEntrySchema).meta({ description: 'Every change-log entry, oldest first.' }),
      webhook_calls: callsOfPerson,
      deliveries: deliveriesOfPerson,
    }),
    exportLink,
  ]),
);

/** GET …/candidates/{candidate_id}/export: everything kept about the candidate, or past 5 MB the link to it. */
export const candidateExportSchema = describing<CandidateExport | ExportLink>()(
  z.union([
    z.strictObject({
      exported_at: exportedAt,
      candidate: candidateRecord,
      notes: z
        .array(z.strictObject({ id, content: z.string(), created_at: timestamp }))
        .meta({ description: "Every note (a form's answers), oldest first." }),
      webhook_calls: callsOfPerson,
      deliveries: deliveriesOfPerson,
    }),
    exportLink,
  ]),
);

/** The success bodies, by component name. */
export const responseSchemas = {
  PipelineListing: pipelineListingSchema,
  AssignableMemberList: assignableMemberListingSchema,
  ProspectChangeResult: patchResultSchema,
  NoteResult: noteResultSchema,
  TagOutcome: tagOutcomeSchema,
  Prospect: prospectSchema,
  ProspectLookup: prospectLookupSchema,
  ProspectPage: prospectPageSchema,
  ProspectSearch: prospectSearchSchema,
  NoteList: noteListSchema,
  ChangeList: changeListSchema,
  ChangeUndone: changeUndoneSchema,
  LeadResult: leadResultSchema,
  ApplicationResult: applicationResultSchema,
  WorkspaceDetail: workspaceDetailSchema,
  CandidateList: candidateListSchema,
  TagList: tagListSchema,
  Tag: settingsTagSchema,
  FieldList: fieldListSchema,
  FieldDefinition: fieldDefinitionSchema,
  DeletedField: deletedFieldSchema,
  Erased: erasedSchema,
  ApiKeyList: apiKeyListSchema,
  CreatedApiKey: createdApiKeySchema,
  RevokedApiKey: revokedApiKeySchema,
  WebhookDetail: webhookDetailSchema,
  WebhookStatus: webhookStatusSchema,
  WebhookToken: webhookTokenSchema,
  Session: sessionSchema,
  RefreshedSession: refreshedSessionSchema,
  PasswordResetStarted: passwordResetStartedSchema,
  WebhookCallPage: webhookCallPageSchema,
  WebhookCallDocument: webhookCallDocumentSchema,
  WebhookReplay: webhookReplaySchema,
  SubscriptionList: subscriptionListSchema,
  CreatedSubscription: createdSubscriptionSchema,
  SubscriptionState: subscriptionStateSchema,
  DeletedSubscription: deletedSubscriptionSchema,
  RotatedSecret: rotatedSecretSchema,
  Delivery: delivery,
  DeliveryPage: deliveryPageSchema,
  MyWorkspaces: myWorkspacesSchema,
  MemberList: memberListSchema,
  Member: memberSchema,
  InvitedMember: invitedMemberSchema,
  RemovedMember: removedMemberSchema,
  AuditPage: auditPageSchema,
  ProspectExport: prospectExportSchema,
  CandidateExport: candidateExportSchema,
} as const;

export type ResponseSchemaName = keyof typeof responseSchemas;
