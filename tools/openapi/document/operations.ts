import { maxIdempotencyKeyLength } from '../../../lib/http/middleware/idempotency';
import { defaultPageLimit, maxPageLimit } from '../../../lib/http/query-parameters';
import { leadFieldDefinitions } from '../../../lib/domain/lead/lead';
import { maxFilterValues, maxListIds } from '../../../lib/domain/prospect-list/list-query';
import { messages as catalogue } from '../../../lib/messages';
import { maxSettingsNameLength } from '../../../lib/http/settings-input';
import { retentionMonthsRange } from '../../../lib/domain/retention';
import { allScopes, maxWebhookBodyBytes } from '../../../lib/routes';
import { requestLimit, stageChangeLimit } from '../../../lib/storage/rate-limit';
import { exampleCursor, exampleIds as ids, exampleListCursor, exampleMessages as messages } from './examples';
import type { ProspectListParameterName } from './prospect-list-parameters';
import type { RequestSchemaName } from './request-schemas';
import type { ResponseSchemaName } from './response-schemas';
import { memberOperations } from './member-operations';
import { signInOperations } from './sign-in-operations';
import { eventsOperations } from './events-operations';
import { customFieldListing, fieldOperations } from './field-operations';

export type Example = { summary: string; value: unknown };

/** One error answer; `code` only for the lead webhook, whose 400 has two (the others' code follows the status). */
export type ErrorExample = {
  summary: string;
  message: string;
  code?: string;
  details?: { field: string; message: string };
};

export type ErrorCase = {
  description: string;
  examples: readonly ErrorExample[];
  /** 429 always carries Retry-After; a refusal for an Idempotency-Key still in flight does too. */
  retryAfter?: 'always' | 'when in flight';
};

/** A success with a body; without `schema`, an answer without one (204). */
export type SuccessCase = { description: string; schema?: ResponseSchemaName; examples?: Record<string, Example> };

export type RequestBody = {
  schema: RequestSchemaName;
  description: string;
  /**
   * Webhooks also read `application/x-www-form-urlencoded`, what "Webhooks by Zapier" sends by
   * default: how its fields that are no plain text are written there (reserved characters such as
   * `,` and `[]` may stay unencoded: the service decodes the form as a browser does).
   */
  formEncoding?: Record<string, { style: 'form' | 'deepObject'; explode: boolean; allowReserved: true }>;
  examples: Record<string, Example>;
};

/**
 * The query parameters of the read routes, by component name (tools/openapi/document/document.ts), and of the list of
 * prospects (tools/openapi/document/prospect-list-parameters.ts).
 */
export type QueryParameterName =
  | 'Limit'
  | 'Cursor'
  | 'Email'
  | 'Phone'
  | 'SocialUrl'
  | 'CandidateEmail'
  | 'Failed'
  | 'DeliveryStatus'
  | ProspectListParameterName;

export type OperationText = {
  summary: string;
  description: string;
  query?: readonly QueryParameterName[];
  requestBody?: RequestBody;
  success: Record<number, SuccessCase>;
  /**
   * The operation's own error answers. On the settings API (credentials `member-token` and `none`) the document adds
   * what every such route answers (tools/openapi/document/document.ts, `credentialErrors`): 401, the workspace's 404, the role's
   * 403, 429, a body's 400 and 500; an operation lists only what its use case adds (a field's 400, a target's 404,
   * 409, 422), merged into the same status.
   */
  errors: Record<number, ErrorCase>;
};

const keyDetails = (message: string) => ({ field: 'Idempotency-Key', message });

const prospectApiErrors = (scope: string, stageChanges = false): Record<number, ErrorCase> => ({
  401: {
    description:
      'API key missing, invalid or revoked, a webhook token instead of a key, or a credential in the query string ' +
      '(`api_key`, `apikey`, `key`, `token`, `access_token`), even next to a valid header.',
    examples: [{ summary: 'No valid key', message: messages.unauthorized }],
  },
  403: {
    description: `The key lacks the \`${scope}\` scope.`,
    examples: [{ summary: 'Scope missing', message: messages.forbidden }],
  },
  429: {
    description:
      `More than ${requestLimit} requests in the current minute for this key` +
      (stageChanges ? `, or more than ${stageChangeLimit} PATCHes carrying \`stage\`` : '') +
      '. Retry after `Retry-After` seconds; a refused request counts nothing.',
    examples: [{ summary: 'Limit reached', message: messages.rateLimited }],
    retryAfter: 'always',
  },
  500: {
    description: 'Internal error: retry later. The message says nothing more; quote `x-request-id` to support.',
    examples: [{ summary: 'Internal error', message: messages.internal }],
  },
});

const prospectNotFound: ErrorCase = {
  description:
    "No such prospect in the key's workspace (also a `prospect_id` that is not a UUID, or another workspace's prospect).",
  examples: [{ summary: 'Unknown prospect', message: messages.prospectNotFound }],
};

const queryDetails = (field: string, message: string) => ({ field, message });

/** A 400 on a paginated list: `limit` or `cursor` malformed, or given twice. Checked before the prospect. */
const pageErrors: ErrorCase = {
  description:
    `\`limit\` not an integer from 1 to ${maxPageLimit} in decimal digits, \`cursor\` not the \`next_cursor\` of a page of this ` +
    "same list (the same route, prospect and key's workspace), or either parameter given twice. Checked before " +
    'the prospect: a malformed `limit` or `cursor` is a 400 even for an unknown prospect.',
  examples: [
    { summary: 'Invalid limit', message: messages.invalidLimit, details: queryDetails('limit', messages.invalidLimit) },
    {
      summary: 'Cursor of another list',
      message: messages.invalidCursor,
      details: queryDetails('cursor', messages.invalidCursor),
    },
    {
      summary: 'Parameter given twice',
      message: messages.repeatedCursor,
      details: queryDetails('cursor', messages.repeatedCursor),
    },
  ],
};

const pageDescription = (items: string, order: string) =>
  `${items}, newest first by ${order}, at most \`limit\` a page (default ${defaultPageLimit}). Follow \`next_cursor\` until it is ` +
  'null: pages are read by key from an immutable sort key, so writes made meanwhile never show an item twice nor ' +
  'skip one that existed when the first page was read (newer ones appear only in a new listing).';

const keyTooLong: ErrorExample = {
  summary: 'Idempotency-Key too long',
  message: messages.keyTooLong,
  details: keyDetails(messages.keyTooLong),
};

const keyInFlight: ErrorExample = {
  summary: 'Same Idempotency-Key still running',
  message: messages.keyInFlight,
  details: keyDetails(messages.keyInFlight),
};

const keyReused: ErrorExample = {
  summary: 'Idempotency-Key reused with another body',
  message: messages.keyReused,
  details: keyDetails(messages.keyReused),
};

const inFlightConflict: ErrorCase = {
  description: 'A call with the same `Idempotency-Key` is still running: retry after `Retry-After` (1 second).',
  examples: [keyInFlight],
  retryAfter: 'when in flight',
};

const tagOutcome = (outcome: string, tag = { id: ids.vipTag, name: 'VIP' }): Example => ({
  summary: outcome,
  value: { outcome, tag },
});

const { maxLengths } = leadFieldDefinitions;

const customValueRefused = catalogue.body.invalidField('fields.budget', catalogue.fields.patchValueRefused('Budget'));
const customFieldUnknown = catalogue.fields.patchUnknownField('budjet');

/** The fields of a prospect that the PATCH answer carries. */
const patchAnswerOf = ({
  id,
  pipeline_id,
  stage_id,
  setter_id,
  closer_id,
  next_follow_up_at,
  fields,
}: typeof prospect) => ({
  id,
  pipeline_id,
  stage_id,
  setter_id,
  closer_id,
  next_follow_up_at,
  fields,
});

/** The custom fields of the examples' workspace (docs/api.md#custom-fields), as the prospect below has them. */
const prospectFields = { budget: 1500.5, start: '2027-01-05', interests: ['Vente', 'Coaching'], newsletter: null };

/** A prospect as GET /prospects/{prospect_id} answers it: the lead below, moved and tagged. */
const prospect = {
  id: ids.prospect,
  pipeline_id: ids.salesPipeline,
  stage_id: ids.followUpStage,
  setter_id: ids.member,
  closer_id: null,
  next_follow_up_at: '2026-12-01T08:30:00.000Z',
  first_name: 'Nina',
  last_name: 'Roux',
  email: 'nina.roux@exemple.test',
  phone: '+33698765432',
  social_url: 'https://www.linkedin.com/in/nina-roux',
  source: 'Typeform - formulaire de contact',
  tags: [{ id: ids.vipTag, name: 'VIP' }],
  fields: prospectFields,
  created_at: '2026-11-14T09:12:45.120Z',
  updated_at: '2026-11-21T10:05:00.000Z',
};

const lead = {
  first_name: 'Nina',
  last_name: 'Roux',
  email: 'nina.roux@exemple.test',
  phone: '+33698765432',
  social_url: 'https://www.linkedin.com/in/nina-roux',
  source: 'Typeform - formulaire de contact',
  pipeline: 'Ventes',
  stage: 'Nouveau',
  tag_ids: [ids.vipTag],
};

/*
 * The settings API's workspace, tags, API keys and webhook (docs/api.md#settings-api): signed-in members, by role.
 */

/** A 400 of a settings body beyond the common ones (tools/openapi/document/document.ts): what the use case refuses itself. */
const refusedName = (message: string): ErrorCase => ({
  description: `A \`name\` blank once trimmed, or over ${maxSettingsNameLength} characters (\`details.field\` names it).`,
  examples: [{ summary: 'Blank name', message, details: { field: 'name', message } }],
});

/** `GET /workspaces/{workspace_id}` of a workspace that kept every default. */
const exampleWorkspace = {
  id: ids.workspace,
  name: 'Acme',
  phone_matching: 'exact',
  phone_region: 'FR',
  time_zone: 'Europe/Paris',
  retention_months: null,
  created_at: '2026-11-01T08:00:00.000Z',
};
const invalidTimeZone = catalogue.body.invalidField('time_zone', catalogue.rules.timeZone);
const invalidRetention = catalogue.body.invalidField(
  'retention_months',
  catalogue.rules.retentionMonths(retentionMonthsRange.min, retentionMonthsRange.max),
);
const noSetting = catalogue.body.invalidBody(catalogue.rules.oneSettingToChange('time_zone, retention_months'));

const exampleWebhookUrl = `https://api.exemple.test/webhooks/ingest-lead?endpoint_id=${ids.endpoint}`;
const exampleRecruitmentUrl = `https://api.exemple.test/webhooks/recruitment?endpoint_id=${ids.endpoint}`;
const exampleKey = {
  id: ids.apiKey,
  name: 'Zapier',
  scopes: ['pipelines:read', 'prospects:read', 'prospects:write', 'notes:write', 'tags:write'],
};
const exampleWebhookStatus = { endpoint_id: ids.endpoint, url: exampleWebhookUrl, active: true };
const tagNameBody = (summary: string, name: string): Record<string, Example> => ({
  named: { summary, value: { name } },
});
const tagNameTaken: ErrorCase = {
  description:
    'Another tag of the workspace has that name, compared ignoring case and surrounding spaces ' +
    '(docs/api.md#names-as-references).',
  examples: [{ summary: 'Name taken', message: catalogue.admin.config.tagNameTaken('VIP') }],
};

/** A member's 404 for a prospect: not in the path's workspace. */
const memberProspectNotFound: ErrorCase = {
  description:
    "No such prospect in the workspace (also a `prospect_id` that is not a UUID, or another workspace's prospect).",
  examples: [{ summary: 'Unknown prospect', message: messages.prospectNotFound }],
};

/** An erasure takes no body, or `{}`: anything else is refused before anything is read. */
const erasureBodyRefused: ErrorCase = {
  description: 'A body other than none or an empty JSON object.',
  examples: [
    {
      summary: 'Unknown field',
      message: catalogue.body.unknownField('reason'),
      details: { field: 'reason', message: catalogue.body.unknownField('reason') },
    },
  ],
};

/** The key's stage change of the examples, undone at `undoneAt` (null: not undone). */
const stageChangeEntry = (undoneAt: string | null) => ({
  id: ids.stageChange,
  prospect_id: ids.prospect,
  key_id: ids.apiKey,
  field: 'stage',
  before: ids.newStage,
  after: ids.followUpStage,
  at: '2026-11-21T10:04:00.000Z',
  undone_at: undoneAt,
});

/** The active sales pipelines and the tags: `GET /pipelines` and the settings page's `GET …/pipelines` alike. */
const pipelineListing: OperationText['success'] = {
  200: {
    description: 'Pipelines and tags.',
    schema: 'PipelineListing',
    examples: {
      workspace: {
        summary: 'One pipeline, two tags',
        value: {
          pipelines: [
            {
              id: ids.salesPipeline,
              name: 'Ventes',
              is_default: true,
              stages: [
                { id: ids.newStage, name: 'Nouveau', type: 'Appointment Setting', order: 0 },
                { id: ids.followUpStage, name: 'Relance', type: 'Follow up', order: 1 },
                { id: ids.wonStage, name: 'Closé', type: 'Follow up', order: 2 },
              ],
            },
          ],
          tags: [
            { id: ids.hotTag, name: 'Chaud' },
            { id: ids.vipTag, name: 'VIP' },
          ],
        },
      },
    },
  },
};

/** An export's examples (docs/api.md#erasure-export-and-retention): one lead's call, one delivery of its creation. */
const exportedAt = '2026-11-22T08:00:00.000Z';
const leadCall = {
  id: '0193a0e8-6f1a-7b2c-8d3e-4f5a6b7c8d9e',
  at: '2026-11-14T09:12:45.120Z',
  route: 'ingest-lead',
  status: 200,
  outcome: 'created',
  record_id: ids.prospect,
  placement: 'demande',
  pipeline_id: ids.salesPipeline,
  stage_id: ids.newStage,
  warnings: [],
  message: null,
  request_id: 'b7e6d5c4-a3b2-4190-8f7e-6d5c4b3a2910',
  count: 1,
  body_truncated: false,
};
const creationDelivery = {
  id: '0193a0e8-7a1b-7c2d-8e3f-4a5b6c7d8e9f',
  event_id: '0193a0e8-7a1b-7c2d-9e3f-4a5b6c7d8e90',
  type: 'prospect.created',
  status: 'delivered',
  attempts: 1,
  last_status_code: 204,
  last_error: null,
  next_attempt_at: null,
  created_at: '2026-11-14T09:12:46.002Z',
};
const prospectExport = {
  exported_at: exportedAt,
  prospect,
  notes: [
    {
      id: ids.note,
      content: 'Rappelé, intéressé par l’offre annuelle.',
      date: '2026-11-20T14:00:00.000Z',
      created_at: '2026-11-21T10:04:12.345Z',
    },
  ],
  changes: [stageChangeEntry(null)],
  webhook_calls: [{ call: leadCall, body: null }],
  deliveries: [
    {
      ...creationDelivery,
      payload: {
        type: 'prospect.created',
        timestamp: '2026-11-14T09:12:45.120Z',
        data: { prospect, actor: { kind: 'webhook', id: ids.endpoint } },
      },
    },
  ],
};
const candidate = {
  id: ids.talent,
  pipeline_id: '5f0d2c8e-1b3a-4d6f-9e2c-7a8b9c0d1e2f',
  first_name: 'Camille',
  last_name: 'Durand',
  email: 'camille.durand@exemple.test',
  phone: '+33612345678',
  position: 'Commerciale terrain',
  source: 'Welcome to the Jungle',
  created_at: '2026-11-10T16:20:00.000Z',
};
const candidateExport = {
  exported_at: exportedAt,
  candidate,
  notes: [
    {
      id: ids.olderNote,
      content: 'Disponibilité : immédiate\nPrétentions : 38 k€',
      created_at: '2026-11-10T16:20:00.000Z',
    },
  ],
  webhook_calls: [
    {
      call: {
        ...leadCall,
        at: candidate.created_at,
        route: 'recruitment',
        status: 200,
        record_id: ids.talent,
        placement: null,
        pipeline_id: null,
        stage_id: null,
      },
      body: null,
    },
  ],
  deliveries: [],
};
const exportLink = {
  exported_at: exportedAt,
  download_url: `https://crm-prod-exports.s3.eu-west-3.amazonaws.com/${ids.workspace}/0193a0f2-1c2d-7e3f-8a4b-5c6d7e8f9a0b.json?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=900&X-Amz-Signature=…`,
};

/** A prospect's answer, the Prospect API's and a member's alike. */
const prospectAnswer: OperationText['success'] = {
  200: {
    description: 'The prospect.',
    schema: 'Prospect',
    examples: { prospect: { summary: 'A prospect', value: prospect } },
  },
};

/*
 * `GET /prospects` and a member's `GET /workspaces/{workspace_id}/prospects`: the look-up by contact when the request
 * names one (docs/api.md#find-a-prospect-by-contact), else the list of the workspace's prospects
 * (docs/api.md#lists-of-prospects). One operation each, so its parameters, answers and refusals are both uses'.
 */

/** Both uses' parameters: the contact of the look-up, then the list's filters, order and page. */
const prospectSearchQuery: readonly QueryParameterName[] = [
  'Email',
  'Phone',
  'SocialUrl',
  'ListId',
  'ListPipeline',
  'ListStage',
  'ListSetterId',
  'ListCloserId',
  'ListMemberId',
  'ListTag',
  'ListFollowUp',
  'ListFollowUpFrom',
  'ListFollowUpTo',
  'ListCreatedFrom',
  'ListCreatedTo',
  'ListUpdatedFrom',
  'ListUpdatedTo',
  'ListSort',
  'Limit',
  'ListCursor',
];

/** What both routes do, `workspace` naming whose prospects they are. */
const prospectSearchDescription = (workspace: string) =>
  '**Look-up**: exactly one of `email`, `phone`, `social_url`, and no other parameter. The answer is the prospect ' +
  'the lead webhook would match with that one value (e-mail ignoring case and Unicode normalization, phone exactly ' +
  'as sent, `social_url` exactly; each trimmed), or an empty list, never a 404; it has no `next_cursor`.\n\n' +
  `**List**: without any of them, ${workspace} prospects, a page at a time, newest first unless \`sort\` says ` +
  'otherwise, and a `next_cursor` (null once no prospect follows: a page may hold fewer than `limit` prospects, ' +
  'none even, while it is not). Different filters combine with AND; a filter given several times means any of its ' +
  'values. Besides the parameters below, `fields.<key>` (repeatable) keeps the prospects whose custom field ' +
  "`<key>`, a live field's key (`GET /fields`), has this value, read as its type reads it in a PATCH " +
  '(`fields.budget=1 500,50` finds 1500.5; a `multi_choice` value, one option or several separated by commas, finds ' +
  'any of them; a prospect without a value is not listed); a value that does not fit the type is a 400, a key of no ' +
  'live field a 422. OpenAPI names query parameters one by one, so it is described here and not listed. The ' +
  'prospects are read strongly consistently: each shows its last answered change.';

const prospectSearchAnswer: OperationText['success'] = {
  200: {
    description:
      'The look-up: the matching prospect (one element) or none (empty list). The list: a page of prospects, and ' +
      'the cursor of the next one.',
    schema: 'ProspectSearch',
    examples: {
      found: { summary: 'Known contact', value: { prospects: [prospect] } },
      none: { summary: 'Unknown contact', value: { prospects: [] } },
      page: {
        summary: 'A page of `?tag=VIP&limit=1`, more to read',
        value: { prospects: [prospect], next_cursor: exampleListCursor },
      },
      empty: { summary: 'No prospect matches the query', value: { prospects: [], next_cursor: null } },
    },
  },
};

/** The refusals of both uses, each naming its parameter in `details.field` (but `query` for the look-up's contact). */
const prospectSearchErrors = (lookupRules: string): Record<number, ErrorCase> => ({
  400: {
    description:
      `Look-up: more than one of \`email\`, \`phone\`, \`social_url\`; one of them given twice; ${lookupRules}; ` +
      'or another parameter beside the contact. List: a parameter it does not read (`?tags=VIP`); one that takes a ' +
      `single value given twice; more than ${maxListIds} \`id\`, or more than ${maxFilterValues} values in all across ` +
      'the other repeatable filters (naming the one that goes over); a value that does not read: not a UUID, a blank ' +
      'name, an unknown `follow_up` window or `sort`, an instant without its zone or a date that does not exist, a ' +
      "custom field's value that does not fit its type; `limit` out of range; a `cursor` of another query or " +
      'workspace, or altered.',
    examples: [
      {
        summary: 'Two contact parameters',
        message: messages.oneContact,
        details: queryDetails('query', messages.oneContact),
      },
      {
        summary: 'Not an address',
        message: messages.unreadableEmail,
        details: queryDetails('email', messages.unreadableEmail),
      },
      {
        summary: 'A list parameter beside the contact',
        message: messages.contactAlone,
        details: queryDetails('stage', messages.contactAlone),
      },
      {
        summary: 'A parameter the list does not read',
        message: messages.unknownListParameter,
        details: queryDetails('tags', messages.unknownListParameter),
      },
      {
        summary: 'Sort given twice',
        message: messages.repeatedSort,
        details: queryDetails('sort', messages.repeatedSort),
      },
      {
        summary: 'Too many filter values',
        message: messages.tooManyFilterValues,
        details: queryDetails('tag', messages.tooManyFilterValues),
      },
      {
        summary: 'Unknown follow-up window',
        message: messages.invalidFollowUp,
        details: queryDetails('follow_up', messages.invalidFollowUp),
      },
      {
        summary: 'Instant without its zone',
        message: messages.invalidInstant,
        details: queryDetails('created_from', messages.invalidInstant),
      },
      {
        summary: "A custom field's value that does not fit its type",
        message: messages.invalidFieldFilter,
        details: queryDetails('fields.budget', messages.invalidFieldFilter),
      },
      {
        summary: 'Cursor of another query',
        message: messages.invalidCursor,
        details: queryDetails('cursor', messages.invalidCursor),
      },
    ],
  },
  422: {
    description:
      'List: a pipeline, stage, tag or member the workspace does not have, or a `fields.<key>` whose key names no ' +
      "live field (a deleted field's key included).",
    examples: [
      {
        summary: 'Unknown stage',
        message: messages.unknownListStage,
        details: queryDetails('stage', messages.unknownListStage),
      },
      {
        summary: 'Unknown pipeline',
        message: messages.unknownListPipeline,
        details: queryDetails('pipeline', messages.unknownListPipeline),
      },
      {
        summary: 'Unknown tag',
        message: messages.unknownListTag,
        details: queryDetails('tag', messages.unknownListTag),
      },
      {
        summary: 'Unknown member',
        message: messages.unknownListMember,
        details: queryDetails('closer_id', messages.unknownListMember),
      },
      {
        summary: 'No such custom field',
        message: messages.unknownFieldKey,
        details: queryDetails('fields.budjet', messages.unknownFieldKey),
      },
    ],
  },
});

/** What the document says about each route of lib/routes.ts, by route id. */
export const operations: Record<string, OperationText> = {
  ...signInOperations,
  ...memberOperations,
  ...eventsOperations,
  ...fieldOperations,
  listPipelines: {
    summary: 'List the active sales pipelines, their stages and the tags',
    description:
      'The active sales pipelines of the workspace (recruitment pipelines are not part of the Prospect API), each ' +
      'with its stages in board order, and the tags of the workspace. A workspace may have none.',
    success: pipelineListing,
    errors: prospectApiErrors('pipelines:read'),
  },
  listAssignableMembers: {
    summary: 'List the members that may be a setter or a closer',
    description:
      "The workspace's members, by name, each with the id that `setter_id` and `closer_id` take. Members removed " +
      'from the workspace are listed too: their ids stay valid. No e-mail address is shown.',
    success: {
      200: {
        description: 'The members.',
        schema: 'AssignableMemberList',
        examples: {
          workspace: {
            summary: 'Two members',
            value: {
              members: [
                { id: ids.member, name: 'Alice Martin' },
                { id: ids.invitedMember, name: 'Bob Durand' },
              ],
            },
          },
        },
      },
    },
    errors: prospectApiErrors('pipelines:read'),
  },
  listCustomFields: { ...customFieldListing, errors: prospectApiErrors('pipelines:read') },

  updateProspect: {
    summary: "Change a prospect's stage, setter, closer, next follow-up or custom fields",
    description:
      'Send only the fields to change, at least one. Every field whose value really changes is logged with the key ' +
      'and the values before and after (a custom field as `fields.<key>`); a team member can undo it. A PATCH ' +
      `carrying \`stage\` also counts toward the ${stageChangeLimit} stage changes a minute, whatever its outcome.`,
    requestBody: {
      schema: 'ProspectChange',
      description: 'The fields to change, at least one; any other field is refused (400).',
      examples: {
        move: {
          summary: 'Move and plan a follow-up',
          value: { stage: 'Relance', setter_id: ids.member, follow_up_at: '2026-12-01T09:30:00+01:00' },
        },
        cancelFollowUp: { summary: 'Cancel the next follow-up', value: { follow_up_at: null } },
        customFields: {
          summary: 'Set custom fields, clear one',
          value: { fields: { budget: '1 500,50', interests: 'Vente, Coaching', newsletter: null } },
        },
      },
    },
    success: {
      200: {
        description: 'The prospect after the change, and what changed.',
        schema: 'ProspectChangeResult',
        examples: {
          moved: {
            summary: 'Stage, setter and follow-up changed',
            value: { ...patchAnswerOf(prospect), changed: ['stage', 'setter', 'follow_up'] },
          },
          customFields: {
            summary: 'Custom fields changed',
            value: { ...patchAnswerOf(prospect), changed: ['fields.budget', 'fields.interests'] },
          },
        },
      },
    },
    errors: {
      400: {
        description:
          'Body not a JSON object, unknown field, invalid value (`details.field` names it: `fields.<key>` for a custom ' +
          "field's value its field does not read, `fields` for values together over 16 KB), no field to change, or " +
          `an \`Idempotency-Key\` over ${maxIdempotencyKeyLength} characters; nothing of the PATCH is applied.`,
        examples: [
          {
            summary: 'Unknown field',
            message: messages.unknownField,
            details: { field: 'status', message: messages.unknownField },
          },
          {
            summary: "A custom field's value that does not fit",
            message: customValueRefused,
            details: { field: 'fields.budget', message: customValueRefused },
          },
          keyTooLong,
        ],
      },
      404: prospectNotFound,
      409: {
        description:
          'The prospect is in `Closé` or `Acompte`, or the move goes to one of them (a sale is entered in the ' +
          'application): nothing of the PATCH is applied. Also: a call with the same `Idempotency-Key` is still ' +
          'running (with `Retry-After: 1`).',
        examples: [{ summary: 'Protected stage', message: messages.protectedStage }, keyInFlight],
        retryAfter: 'when in flight',
      },
      422: {
        description:
          'Stage, member or custom field (`details.field`: `fields.<key>`; a deleted one too) not found in the ' +
          'workspace, or an `Idempotency-Key` already used with another body; nothing of the PATCH is applied.',
        examples: [
          { summary: 'Unknown stage', message: messages.unknownStage },
          { summary: 'Unknown member', message: messages.unknownMember },
          {
            summary: 'Unknown custom field',
            message: customFieldUnknown,
            details: { field: 'fields.budjet', message: customFieldUnknown },
          },
          keyReused,
        ],
      },
      ...prospectApiErrors('prospects:write', true),
    },
  },

  addNote: {
    summary: 'Add a note to a prospect',
    description: 'Plain text, kept as sent (HTML is shown as written, a blank line makes a paragraph). Never deleted.',
    requestBody: {
      schema: 'NewNote',
      description: 'The note.',
      examples: {
        backfilled: {
          summary: 'A note dated in the past',
          value: { content: 'Rappelé, intéressé par l’offre annuelle.', date: '2026-11-20T15:00:00+01:00' },
        },
      },
    },
    success: {
      201: {
        description: 'The note is created.',
        schema: 'NoteResult',
        examples: {
          created: {
            summary: 'Created',
            value: { id: ids.note, created_at: '2026-11-21T10:04:12.345Z', warnings: [] },
          },
          futureDate: {
            summary: 'Date in the future: reception date kept',
            value: { id: ids.note, created_at: '2026-11-21T10:04:12.345Z', warnings: [messages.futureNoteDate] },
          },
        },
      },
    },
    errors: {
      400: {
        description:
          'Body not a JSON object, unknown field, blank `content` or longer than 10 000 characters, or an ' +
          `\`Idempotency-Key\` over ${maxIdempotencyKeyLength} characters.`,
        examples: [
          {
            summary: 'Blank content',
            message: messages.blankNote,
            details: { field: 'content', message: messages.blankNote },
          },
        ],
      },
      404: prospectNotFound,
      409: inFlightConflict,
      422: { description: 'An `Idempotency-Key` already used with another body.', examples: [keyReused] },
      ...prospectApiErrors('notes:write'),
    },
  },

  addTag: {
    summary: 'Add a tag to a prospect',
    description: 'The tag must exist in the workspace: the API never creates tags.',
    requestBody: {
      schema: 'TagReference',
      description: 'The tag, by id or exact name.',
      examples: {
        byName: { summary: 'By name', value: { tag: 'VIP' } },
        byId: { summary: 'By id', value: { tag: ids.vipTag } },
      },
    },
    success: {
      201: { description: 'The tag was added.', schema: 'TagOutcome', examples: { added: tagOutcome('added') } },
      200: {
        description: 'The prospect already had the tag: nothing changed.',
        schema: 'TagOutcome',
        examples: { alreadyPresent: tagOutcome('already_present') },
      },
    },
    errors: {
      400: {
        description:
          'Body not a JSON object, unknown field, `tag` missing or blank, or an `Idempotency-Key` over ' +
          `${maxIdempotencyKeyLength} characters.`,
        examples: [
          {
            summary: 'Unknown field',
            message: messages.unknownTagsField,
            details: { field: 'tags', message: messages.unknownTagsField },
          },
        ],
      },
      404: prospectNotFound,
      409: inFlightConflict,
      422: {
        description: 'No such tag in the workspace, or an `Idempotency-Key` already used with another body.',
        examples: [{ summary: 'Unknown tag', message: messages.unknownTag }, keyReused],
      },
      ...prospectApiErrors('tags:write'),
    },
  },

  removeTag: {
    summary: 'Remove a tag from a prospect',
    description: 'The tag must exist in the workspace; a tag the prospect does not have is answered `absent`.',
    success: {
      200: {
        description: 'The tag was removed, or the prospect did not have it.',
        schema: 'TagOutcome',
        examples: { removed: tagOutcome('removed'), absent: tagOutcome('absent') },
      },
    },
    errors: {
      400: {
        description: `A \`{tag}\` that is not percent-encoded UTF-8 (\`%E9\`, a lone \`%\`), or an \`Idempotency-Key\` over ${maxIdempotencyKeyLength} characters.`,
        examples: [
          {
            summary: 'Unreadable tag in the path',
            message: messages.unreadableTag,
            details: { field: 'tag', message: messages.unreadableTag },
          },
          keyTooLong,
        ],
      },
      404: prospectNotFound,
      409: inFlightConflict,
      422: {
        description: 'No such tag in the workspace, or an `Idempotency-Key` already used with another request.',
        examples: [{ summary: 'Unknown tag', message: messages.unknownTag }, keyReused],
      },
      ...prospectApiErrors('tags:write'),
    },
  },

  getProspect: {
    summary: 'Get a prospect',
    description:
      'The prospect with its contact fields, placement, members, next follow-up and tags. Absent values are `null`; ' +
      'timestamps are UTC.',
    success: prospectAnswer,
    errors: { 404: prospectNotFound, ...prospectApiErrors('prospects:read') },
  },

  findProspects: {
    summary: 'Find a prospect by e-mail, phone or social profile, or list the prospects',
    description: prospectSearchDescription("the key's workspace's"),
    query: prospectSearchQuery,
    success: prospectSearchAnswer,
    errors: {
      ...prospectSearchErrors(
        `a value the lead webhook would not keep: blank once trimmed, longer than its limit (\`email\` ${maxLengths.email}, ` +
          `\`phone\` ${maxLengths.phone}, \`social_url\` ${maxLengths.social_url}), or an \`email\` that is not an address`,
      ),
      ...prospectApiErrors('prospects:read'),
    },
  },

  listNotes: {
    summary: "List a prospect's notes",
    description: pageDescription("The prospect's notes", 'reception time (`created_at`)'),
    query: ['Limit', 'Cursor'],
    success: {
      200: {
        description: 'A page of notes, and the cursor of the next one.',
        schema: 'NoteList',
        examples: {
          page: {
            summary: 'Two notes, more to read',
            value: {
              notes: [
                {
                  id: ids.note,
                  content: 'Rappelé, intéressé par l’offre annuelle.',
                  date: '2026-11-20T14:00:00.000Z',
                  created_at: '2026-11-21T10:04:12.345Z',
                },
                {
                  id: ids.olderNote,
                  content: 'Premier appel : à rappeler la semaine prochaine.',
                  date: '2026-11-14T09:12:45.120Z',
                  created_at: '2026-11-14T09:12:45.120Z',
                },
              ],
              next_cursor: exampleCursor,
            },
          },
          none: { summary: 'No notes', value: { notes: [], next_cursor: null } },
        },
      },
    },
    errors: { 400: pageErrors, 404: prospectNotFound, ...prospectApiErrors('prospects:read') },
  },

  listChanges: {
    summary: "List a prospect's change log",
    description:
      pageDescription('The changes made to the prospect through the Prospect API, one per field', 'time (`at`)') +
      ' An entry undone in the application stays listed, with `undone_at`; an entry of a deleted custom field is not.',
    query: ['Limit', 'Cursor'],
    success: {
      200: {
        description: 'A page of change-log entries, and the cursor of the next one.',
        schema: 'ChangeList',
        examples: {
          page: {
            summary: 'A tag added, a stage change undone',
            value: {
              changes: [
                {
                  id: ids.tagChange,
                  prospect_id: ids.prospect,
                  key_id: ids.apiKey,
                  field: 'tags',
                  before: null,
                  after: ids.vipTag,
                  at: '2026-11-21T10:05:00.000Z',
                  undone_at: null,
                },
                {
                  id: ids.fieldChange,
                  prospect_id: ids.prospect,
                  key_id: ids.apiKey,
                  field: 'fields.interests',
                  before: ['Vente'],
                  after: ['Vente', 'Coaching'],
                  at: '2026-11-21T10:04:30.000Z',
                  undone_at: null,
                },
                {
                  id: ids.stageChange,
                  prospect_id: ids.prospect,
                  key_id: ids.apiKey,
                  field: 'stage',
                  before: ids.newStage,
                  after: ids.followUpStage,
                  at: '2026-11-21T10:04:00.000Z',
                  undone_at: '2026-11-21T11:30:00.000Z',
                },
              ],
              next_cursor: null,
            },
          },
        },
      },
    },
    errors: { 400: pageErrors, 404: prospectNotFound, ...prospectApiErrors('prospects:read') },
  },

  /*
   * The settings API's prospect routes (docs/api.md#settings-api, role member): the Prospect API's answers for a member
   * of the workspace, and the change log's undo. What every settings route answers (401, the workspace's 404, 403, 429,
   * 500) the document adds by credential; these list what their use cases add.
   */
  findWorkspaceProspects: {
    summary: 'Find a prospect of the workspace by e-mail, phone or social profile, or list its prospects',
    description:
      "The Prospect API's `GET /prospects` for a member of the workspace, both uses alike.\n\n" +
      prospectSearchDescription("the workspace's"),
    query: prospectSearchQuery,
    success: prospectSearchAnswer,
    errors: prospectSearchErrors('a value the lead webhook would not keep (as `GET /prospects`)'),
  },

  findWorkspaceCandidates: {
    summary: "Find a person's candidates by e-mail",
    description:
      'The candidates of one address, one per recruitment pipeline the person applied to (an inactive pipeline ' +
      'included), in the pipelines’ order: found as the recruitment webhook recognises a known candidate, the ' +
      'e-mail ignoring case. None: an empty list, never a 404. Read strongly consistently: a candidate the webhook ' +
      'has answered is found.',
    query: ['CandidateEmail'],
    success: {
      200: {
        description: 'The candidates of that address (none: empty list).',
        schema: 'CandidateList',
        examples: {
          found: {
            summary: 'Applied to two pipelines',
            value: {
              candidates: [
                {
                  id: ids.talent,
                  pipeline_id: ids.recruitmentPipeline,
                  first_name: 'Léa',
                  last_name: 'Martin',
                  email: 'lea.martin@exemple.test',
                  phone: '+33612345678',
                  position: 'Développeuse',
                  source: 'Typeform - candidatures',
                  created_at: '2026-11-14T09:12:45.120Z',
                },
                {
                  id: ids.otherTalent,
                  pipeline_id: ids.otherRecruitmentPipeline,
                  first_name: 'Léa',
                  last_name: 'Martin',
                  email: 'Lea.Martin@exemple.test',
                  phone: null,
                  position: null,
                  source: 'webhook',
                  created_at: '2026-11-20T16:40:02.000Z',
                },
              ],
            },
          },
          none: { summary: 'No application from that address', value: { candidates: [] } },
        },
      },
    },
    errors: {
      400: {
        description: 'No `email`, a blank one, one given twice or one that is not an address; another parameter.',
        examples: [
          {
            summary: 'No e-mail',
            message: messages.missingCandidateEmail,
            details: queryDetails('email', messages.missingCandidateEmail),
          },
          {
            summary: 'Not an address',
            message: messages.invalidCandidateEmail,
            details: queryDetails('email', messages.invalidCandidateEmail),
          },
          {
            summary: 'Another parameter',
            message: messages.unknownCandidateParameter,
            details: queryDetails('pipeline', messages.unknownCandidateParameter),
          },
        ],
      },
    },
  },

  exportWorkspaceProspect: {
    summary: 'Export everything kept about a prospect',
    description:
      'One JSON document of everything the service keeps about the person (docs/api.md#erasure-export-and-retention): the prospect as ' +
      '`GET …/prospects/{prospect_id}` shows it, its notes and change-log entries, the journaled webhook calls that ' +
      'named it and the failed ones whose kept body carries its e-mail or phone, with their kept bodies, and the ' +
      'outbound deliveries whose event is about it with that event; each list ' +
      'oldest first. Past 5 MB of JSON, `{ exported_at, download_url }` instead: a link to the same document, valid 15 ' +
      'minutes. Audited (`prospect.exported`, naming the prospect by id).',
    success: {
      200: {
        description: 'The document, or the link to it.',
        schema: 'ProspectExport',
        examples: {
          document: { summary: 'The document', value: prospectExport },
          link: { summary: 'Past 5 MB: the link', value: exportLink },
        },
      },
    },
    errors: { 404: memberProspectNotFound },
  },

  exportWorkspaceCandidate: {
    summary: 'Export everything kept about a candidate',
    description:
      "As a prospect's export (docs/api.md#erasure-export-and-retention): the candidate, its notes (the answers of its forms), the journaled " +
      'recruitment calls that named it or whose kept body carries its e-mail or phone, and the deliveries about it; a ' +
      'candidate has no change log. Past 5 MB, the ' +
      'link. Audited (`candidate.exported`).',
    success: {
      200: {
        description: 'The document, or the link to it.',
        schema: 'CandidateExport',
        examples: {
          document: { summary: 'The document', value: candidateExport },
          link: { summary: 'Past 5 MB: the link', value: exportLink },
        },
      },
    },
    errors: {
      404: {
        description:
          "No such candidate in the workspace (also a `candidate_id` that is not a UUID, or another workspace's candidate).",
        examples: [{ summary: 'Unknown candidate', message: catalogue.candidate.notFound }],
      },
    },
  },

  listWorkspacePipelines: {
    summary: 'List the active sales pipelines, their stages and the tags',
    description:
      'As `GET /pipelines` answers it, for a member of the workspace: the settings page names stages with it (a ' +
      'prospect and its change log carry stage ids).',
    success: pipelineListing,
    errors: {},
  },

  getWorkspaceProspect: {
    summary: 'Get a prospect of the workspace',
    description: 'The prospect as `GET /prospects/{prospect_id}` answers it, for a member of the workspace.',
    success: prospectAnswer,
    errors: { 404: memberProspectNotFound },
  },

  listWorkspaceProspectChanges: {
    summary: "List a prospect's change log, to undo an entry",
    description:
      pageDescription('The changes made to the prospect through the Prospect API, one per field', 'time (`at`)') +
      ' As `GET /prospects/{prospect_id}/changes`; an entry undone stays listed, with `undone_at`.',
    query: ['Limit', 'Cursor'],
    success: {
      200: {
        description: 'A page of change-log entries, and the cursor of the next one.',
        schema: 'ChangeList',
        examples: {
          page: {
            summary: 'A stage change',
            value: { changes: [stageChangeEntry(null)], next_cursor: null },
          },
        },
      },
    },
    errors: { 400: pageErrors, 404: memberProspectNotFound },
  },

  undoChange: {
    summary: 'Undo a change-log entry',
    description:
      "Reverts the entry's field to its value before (a stage with its pipeline; a tag removed or put back; a custom " +
      "field's value, removed when it had none) while " +
      'the prospect is untouched since the entry, and marks the entry undone; no new entry is written. No body (or ' +
      '`{}`). The audit log records it (`change.undone`, with the member), and the outbound event of the change ' +
      'names the member in `data.actor.member_id`.',
    success: {
      200: {
        description: 'The entry, undone, and the prospect after the undo (the `changelog undo` document).',
        schema: 'ChangeUndone',
        examples: {
          undone: {
            summary: 'A stage change undone',
            value: {
              entry: stageChangeEntry('2026-11-21T11:30:00.000Z'),
              prospect: {
                id: ids.prospect,
                pipeline_id: ids.salesPipeline,
                stage_id: ids.newStage,
                setter_id: ids.member,
                closer_id: null,
                next_follow_up_at: '2026-12-01T08:30:00.000Z',
                first_name: 'Nina',
                last_name: 'Roux',
                email: 'nina.roux@exemple.test',
                phone: '+33698765432',
                social_url: 'https://www.linkedin.com/in/nina-roux',
                source: 'Typeform - formulaire de contact',
                fields: prospectFields,
                version: 4,
                created_at: '2026-11-14T09:12:45.120Z',
                updated_at: '2026-11-21T11:30:00.000Z',
              },
            },
          },
        },
      },
    },
    errors: {
      400: {
        description: 'A body other than none or an empty JSON object (`details.field` names an unknown field).',
        examples: [
          {
            summary: 'Unknown field',
            message: catalogue.body.unknownField('reason'),
            details: { field: 'reason', message: catalogue.body.unknownField('reason') },
          },
        ],
      },
      404: {
        description: "No such entry in the workspace (also an `entry_id` that is not a UUID, or another workspace's).",
        examples: [{ summary: 'Unknown entry', message: catalogue.settingsProspects.unknownEntry }],
      },
      409: {
        description: 'The prospect was modified since the entry, or the entry is undone already: nothing changed.',
        examples: [
          { summary: 'Modified since', message: catalogue.changeLog.prospectMoved },
          { summary: 'Undone already', message: catalogue.changeLog.alreadyUndone('2026-11-21T11:30:00.000Z') },
        ],
      },
      422: {
        description: 'A `note` entry: the API never deletes a note.',
        examples: [{ summary: 'A note', message: catalogue.changeLog.noteNotUndone }],
      },
    },
  },

  eraseWorkspaceProspect: {
    summary: "Erase a prospect: the person's right to erasure",
    description:
      'Admin. No body (or `{}`). One transaction deletes the prospect, frees its e-mail, phone and social profile (the ' +
      'same contact sent again is a new prospect) and its pending follow-up; from the answer on it is not found ' +
      "anywhere. Its notes, change-log entries (in the API key's log too), the answers kept for its Idempotency-Keys, " +
      'its deliveries and what the webhook journal holds of it (the `record_id` of its calls, the kept bodies of failed ' +
      'calls carrying its e-mail or phone) are deleted within minutes. The audit log keeps `prospect.erased` (the id ' +
      'and the member), subscribers receive `prospect.erased` (`data.prospect_id` alone). Works on `Closé` and ' +
      '`Acompte` too.',
    success: {
      200: {
        description: 'Erased: its id and when.',
        schema: 'Erased',
        examples: { erased: { summary: 'Erased', value: { id: ids.prospect, erased_at: '2026-12-07T10:15:00.000Z' } } },
      },
    },
    errors: {
      400: erasureBodyRefused,
      404: memberProspectNotFound,
      409: {
        description: 'The prospect kept changing under the erasure: nothing erased, try again.',
        examples: [{ summary: 'Contended', message: catalogue.erasure.contended }],
      },
    },
  },

  eraseWorkspaceCandidate: {
    summary: "Erase a candidate: the person's right to erasure",
    description:
      "Admin. No body (or `{}`). As a prospect's erasure: the candidate deleted and its e-mail freed in its " +
      'recruitment pipeline at once (the same person applying again is a new candidate), its notes (the form ' +
      'answers), deliveries and journal mentions within minutes; audit `candidate.erased`, event `candidate.erased` ' +
      '(`data.candidate_id` alone).',
    success: {
      200: {
        description: 'Erased: its id and when.',
        schema: 'Erased',
        examples: { erased: { summary: 'Erased', value: { id: ids.talent, erased_at: '2026-12-07T10:15:00.000Z' } } },
      },
    },
    errors: {
      400: erasureBodyRefused,
      404: {
        description:
          "No such candidate in the workspace (also a `candidate_id` that is not a UUID, or another workspace's).",
        examples: [{ summary: 'Unknown candidate', message: catalogue.candidate.notFound }],
      },
    },
  },

  ingestLead: {
    summary: 'Receive a lead: create a prospect, or find the known one',
    description:
      'Known contact: same e-mail (ignoring case), else same phone, else, for a lead with neither a known e-mail ' +
      'nor a known phone, same `social_url`. A known contact is not moved and keeps its `source`; its names, ' +
      'e-mail and phone take the values sent (an e-mail or phone owned by another prospect is not taken). ' +
      'Resending a lead never creates a duplicate, even ten times at once. What was not applied as sent is ' +
      `listed in \`warnings\`. Body: JSON whatever the \`Content-Type\`, or a form; at most ${maxWebhookBodyBytes / 1024} KB.`,
    requestBody: {
      schema: 'Lead',
      description:
        'A flat object; every field is optional but at least one of `email`, `phone`, `social_url` must be usable. ' +
        'A field left empty is absent; a field of the wrong type, an `email` that is not an address, a value over ' +
        'its length or any other field is ignored and named in `warnings`. A field `tags` (names) is ignored: use `tag_ids`.',
      formEncoding: { tag_ids: { style: 'form', explode: true, allowReserved: true } },
      examples: {
        full: { summary: 'A form answer mapped field by field', value: lead },
        socialOnly: {
          summary: 'Only a social profile',
          value: { first_name: 'Hugo', social_url: 'https://www.linkedin.com/in/hugo-exemple', source: 'LinkedIn' },
        },
      },
    },
    success: {
      200: {
        description: 'The prospect, created or found.',
        schema: 'LeadResult',
        examples: {
          created: {
            summary: 'New contact, placed as asked',
            value: {
              status: 'created',
              prospect_id: ids.prospect,
              pipeline_id: ids.salesPipeline,
              stage_id: ids.newStage,
              placement: 'demande',
              tags_applied: [{ id: ids.vipTag, name: 'VIP' }],
              warnings: [],
            },
          },
          defaultPlacement: {
            summary: 'Stage not found: default placement, with a warning',
            value: {
              status: 'created',
              prospect_id: ids.prospect,
              pipeline_id: ids.salesPipeline,
              stage_id: ids.newStage,
              placement: 'defaut',
              tags_applied: [],
              warnings: [messages.stageNotFound, messages.unknownFieldIgnored, messages.unknownTagIgnored],
            },
          },
          existing: {
            summary: 'Known contact, not moved',
            value: {
              status: 'existing',
              prospect_id: ids.prospect,
              pipeline_id: ids.salesPipeline,
              stage_id: ids.followUpStage,
              placement: 'existant',
              tags_applied: [],
              warnings: [messages.notMoved],
            },
          },
        },
      },
    },
    errors: {
      400: {
        description:
          '`invalid_endpoint_id`: `endpoint_id` is not a UUID. `invalid_payload`: body not a JSON object or a form, ' +
          `over ${maxWebhookBodyBytes / 1024} KB, or without a usable \`email\`, \`phone\` or \`social_url\`; or an ` +
          `\`Idempotency-Key\` reused with another body or over ${maxIdempotencyKeyLength} characters.`,
        examples: [
          { summary: 'endpoint_id not a UUID', code: 'invalid_endpoint_id', message: messages.endpointMalformed },
          { summary: 'No contact', code: 'invalid_payload', message: messages.noContact },
        ],
      },
      401: {
        description: 'Token missing or invalid, webhook disabled, or an `endpoint_id` that designates no webhook.',
        examples: [{ summary: 'Bad token', code: 'unauthorized', message: messages.webhookUnauthorized }],
      },
      404: {
        description: '`endpoint_id` absent from the URL.',
        examples: [{ summary: 'No endpoint_id', code: 'not_found', message: messages.endpointMissing }],
      },
      500: {
        description:
          'Internal error, or a call with the same `Idempotency-Key` still running (then with `Retry-After: 1`): ' +
          'retry later; form tools do.',
        examples: [{ summary: 'Internal error', code: 'ingest_failed', message: messages.leadFailed }],
        retryAfter: 'when in flight',
      },
    },
  },

  recruitment: {
    summary: 'Receive an application: create a candidate, or note a known one',
    description:
      'The candidate lands in the first column of the recruitment pipeline named (by id, else by exact name), or ' +
      'of the default active one; no pipeline is ever created. The answers become one note. The same e-mail in ' +
      'the same pipeline adds the note to the known candidate (`existing`) without changing it. Native nested ' +
      'payloads of form tools (`data.fields[]`, `form_response.answers[]`) are refused: flatten them first. ' +
      `Body: JSON whatever the \`Content-Type\`, or a form (\`answers[Question]=Réponse\`); at most ${maxWebhookBodyBytes / 1024} KB.`,
    requestBody: {
      schema: 'Application',
      description:
        'A flat object; fields not listed are ignored. Text is trimmed and a blank field is absent; a value over its ' +
        'length, or of another type, is refused (400, `details.field` names it).',
      formEncoding: { answers: { style: 'deepObject', explode: true, allowReserved: true } },
      examples: {
        application: {
          summary: 'An application with its answers',
          value: {
            email: 'camille.dupont@exemple.test',
            name: 'Camille Dupont',
            phone: '+33600000000',
            position: 'Développeuse backend',
            pipeline: 'Développeurs',
            source: 'Typeform',
            answers: { 'Années d’expérience': '5', 'Disponible ?': 'Dans un mois' },
          },
        },
      },
    },
    success: {
      200: {
        description: 'The candidate, created or found.',
        schema: 'ApplicationResult',
        examples: {
          created: { summary: 'New candidate', value: { ok: true, talent_id: ids.talent, action: 'created' } },
          existing: {
            summary: 'Known candidate: note added',
            value: { ok: true, talent_id: ids.talent, action: 'existing' },
          },
        },
      },
    },
    errors: {
      400: {
        description:
          '`endpoint_id` missing or not a UUID, unreadable body, invalid field (`details.field` names it), `answers` ' +
          'too large or nested payload; or an `Idempotency-Key` reused with another body or over ' +
          `${maxIdempotencyKeyLength} characters.`,
        examples: [
          {
            summary: 'Invalid e-mail',
            message: messages.invalidEmail,
            details: { field: 'email', message: messages.invalidEmail },
          },
          {
            summary: 'Nested form payload',
            message: messages.nestedPayload,
            details: { field: 'answers', message: messages.nestedPayload },
          },
        ],
      },
      401: {
        description: 'Token missing or invalid, or webhook disabled.',
        examples: [{ summary: 'Bad token', message: messages.webhookUnauthorized }],
      },
      404: {
        description: 'An `endpoint_id` that designates no webhook, or the requested pipeline not found.',
        examples: [
          { summary: 'Unknown endpoint', message: messages.endpointUnknown },
          { summary: 'Unknown pipeline', message: messages.recruitmentPipelineNotFound },
        ],
      },
      409: {
        description: 'Several recruitment pipelines carry the requested name: use `pipeline_id`.',
        examples: [{ summary: 'Ambiguous name', message: messages.ambiguousPipeline }],
      },
      422: {
        description: 'The workspace has no active recruitment pipeline.',
        examples: [{ summary: 'No pipeline', message: messages.noRecruitmentPipeline }],
      },
      500: {
        description:
          'Internal error, or a call with the same `Idempotency-Key` still running (then with `Retry-After: 1`): ' +
          'retry later; form tools do.',
        examples: [{ summary: 'Internal error', message: messages.internal }],
        retryAfter: 'when in flight',
      },
    },
  },
  getWorkspace: {
    summary: 'The workspace, and the caller’s role in it',
    description:
      'The workspace as `workspace show` prints it, with the role of the member calling. Phone matching is changed ' +
      'by the platform team (`workspace set`), the time zone and the retention by an admin (`PATCH`).',
    success: {
      200: {
        description: 'The workspace.',
        schema: 'WorkspaceDetail',
        examples: {
          workspace: {
            summary: 'An admin’s view',
            value: { ...exampleWorkspace, role: 'admin' },
          },
        },
      },
    },
    errors: {},
  },

  changeWorkspace: {
    summary: 'Change the workspace’s settings',
    description:
      'The settings sent replace the workspace’s (at least one), written with one audit entry per setting changed, in ' +
      'one transaction (`workspace.time_zone_changed`, `workspace.retention_changed`, each with the values before and ' +
      'after). A change to what the workspace already says writes nothing and answers it.',
    requestBody: {
      schema: 'WorkspaceChange',
      description: 'The settings to change.',
      examples: {
        timeZone: { summary: 'A workspace in Montréal', value: { time_zone: 'America/Montreal' } },
        retention: { summary: 'Kept three years after the last change', value: { retention_months: 36 } },
        untilErased: { summary: 'Kept until erased again', value: { retention_months: null } },
      },
    },
    success: {
      200: {
        description: 'The workspace, as `GET /workspaces/{workspace_id}` answers it.',
        schema: 'WorkspaceDetail',
        examples: {
          changed: {
            summary: 'Now in Montréal',
            value: { ...exampleWorkspace, time_zone: 'America/Montreal', role: 'admin' },
          },
          retention: {
            summary: 'Now kept three years',
            value: { ...exampleWorkspace, retention_months: 36, role: 'admin' },
          },
        },
      },
    },
    errors: {
      400: {
        description:
          'A `time_zone` that is not the name of a time zone the IANA database knows (a fixed offset such as `+02:00` ' +
          `neither), a \`retention_months\` that is neither null nor an integer from ${retentionMonthsRange.min} to ` +
          `${retentionMonthsRange.max} (a string such as \`"12"\` neither), or a body without any setting.`,
        examples: [
          {
            summary: 'Unknown time zone',
            message: invalidTimeZone,
            details: { field: 'time_zone', message: invalidTimeZone },
          },
          {
            summary: 'Retention out of range',
            message: invalidRetention,
            details: { field: 'retention_months', message: invalidRetention },
          },
          { summary: 'No setting', message: noSetting, details: { field: 'body', message: noSetting } },
        ],
      },
    },
  },

  listTags: {
    summary: 'List the workspace’s tags',
    description: 'The tags in their order (the Prospect API and the webhooks name them by id or name).',
    success: {
      200: {
        description: 'The tags.',
        schema: 'TagList',
        examples: {
          tags: {
            summary: 'Two tags',
            value: {
              tags: [
                { id: ids.vipTag, name: 'VIP' },
                { id: ids.hotTag, name: 'Chaud' },
              ],
            },
          },
        },
      },
    },
    errors: {},
  },

  createTag: {
    summary: 'Add a tag',
    description: 'A new tag, last of the list, written with its audit entry (`tag.created`).',
    requestBody: {
      schema: 'TagName',
      description: 'The name of the tag.',
      examples: tagNameBody('A new tag', 'Relance été'),
    },
    success: {
      201: {
        description: 'The tag.',
        schema: 'Tag',
        examples: { created: { summary: 'Created', value: { id: ids.vipTag, name: 'Relance été' } } },
      },
    },
    errors: {
      400: refusedName(catalogue.admin.config.blankName),
      409: tagNameTaken,
    },
  },

  renameTag: {
    summary: 'Rename a tag',
    description:
      'The tag renamed everywhere it is shown (records name tags by id), with its audit entry (`tag.renamed`). ' +
      'The name it already has changes nothing.',
    requestBody: {
      schema: 'TagName',
      description: 'The new name.',
      examples: tagNameBody('A new name', 'Très chaud'),
    },
    success: {
      200: {
        description: 'The tag.',
        schema: 'Tag',
        examples: { renamed: { summary: 'Renamed', value: { id: ids.hotTag, name: 'Très chaud' } } },
      },
    },
    errors: {
      400: refusedName(catalogue.admin.config.blankName),
      404: {
        description: "No such tag in the workspace (another workspace's, or a `tag_id` that is not a UUID).",
        examples: [{ summary: 'Unknown tag', message: catalogue.admin.config.unknownTag(ids.vipTag) }],
      },
      409: tagNameTaken,
    },
  },

  listApiKeys: {
    summary: 'List the workspace’s API keys',
    description:
      'The `apikey list` document: every key, revoked ones included (`revoked_at` null while the key works); ' +
      'never a key’s value.',
    success: {
      200: {
        description: 'The keys.',
        schema: 'ApiKeyList',
        examples: {
          keys: {
            summary: 'One key',
            value: { api_keys: [{ ...exampleKey, created_at: '2026-11-02T09:00:00.000Z', revoked_at: null }] },
          },
        },
      },
    },
    errors: {},
  },

  createApiKey: {
    summary: 'Create an API key',
    description:
      'The `apikey create` document: the key’s value (`crm_key_…`) is in this answer only; the service keeps its ' +
      'fingerprint. Written with its audit entry (`api_key.created`, naming the key, never its value).',
    requestBody: {
      schema: 'NewApiKey',
      description: 'Its name, and its scopes (absent: the five; `*`: all).',
      examples: {
        zapier: { summary: 'Every scope', value: { name: 'Zapier' } },
        readOnly: {
          summary: 'Reading only',
          value: { name: 'Tableau de bord', scopes: ['pipelines:read', 'prospects:read'] },
        },
      },
    },
    success: {
      201: {
        description: 'The key, with its value: shown once.',
        schema: 'CreatedApiKey',
        examples: {
          created: { summary: 'Created', value: { ...exampleKey, secret: 'crm_key_0123456789abcdefghijklmnopqrstuv' } },
        },
      },
    },
    errors: {
      400: {
        ...refusedName(catalogue.admin.apiKeys.blankName),
        description:
          `A \`name\` blank once trimmed or over ${maxSettingsNameLength} characters, or \`scopes\` naming none or an ` +
          'unknown scope (`details.field` names it).',
        examples: [
          ...refusedName(catalogue.admin.apiKeys.blankName).examples,
          {
            summary: 'Unknown scope',
            message: catalogue.admin.apiKeys.unknownScopes('lecture', allScopes.join(', ')),
            details: {
              field: 'scopes',
              message: catalogue.admin.apiKeys.unknownScopes('lecture', allScopes.join(', ')),
            },
          },
        ],
      },
    },
  },

  revokeApiKey: {
    summary: 'Revoke an API key',
    description:
      'The `apikey revoke` document: the key fails from its next call on (the authorizer reads keys strongly ' +
      'consistently). Revoking again keeps the first date. Written with its audit entry (`api_key.revoked`).',
    success: {
      200: {
        description: 'The key and when it was revoked.',
        schema: 'RevokedApiKey',
        examples: {
          revoked: { summary: 'Revoked', value: { id: ids.apiKey, revoked_at: '2026-11-21T10:00:00.000Z' } },
        },
      },
    },
    errors: {
      404: {
        description: "No such key in the workspace (another workspace's, or a `key_id` that is not a UUID).",
        examples: [{ summary: 'Unknown key', message: catalogue.admin.ids.unknown.apiKey(ids.apiKey) }],
      },
    },
  },

  listApiKeyChanges: {
    summary: 'List the changes made with an API key',
    description:
      pageDescription(
        'The changes the key made to prospects, one per field (as `changelog list --key`)',
        'time (`at`)',
      ) +
      ' An entry undone stays listed, with `undone_at`. Read from an index: a change made a moment ago may appear ' +
      'on the next listing only.',
    query: ['Limit', 'Cursor'],
    success: {
      200: {
        description: 'A page of change-log entries, and the cursor of the next one.',
        schema: 'ChangeList',
        examples: {
          page: {
            summary: 'A stage change',
            value: {
              changes: [
                {
                  id: ids.stageChange,
                  prospect_id: ids.prospect,
                  key_id: ids.apiKey,
                  field: 'stage',
                  before: ids.newStage,
                  after: ids.followUpStage,
                  at: '2026-11-21T10:05:00.000Z',
                  undone_at: null,
                },
              ],
              next_cursor: null,
            },
          },
        },
      },
    },
    errors: {
      400: {
        ...pageErrors,
        description:
          `\`limit\` not an integer from 1 to ${maxPageLimit} in decimal digits, \`cursor\` not the \`next_cursor\` of a page ` +
          'of this same list (this key), or either parameter given twice. Checked before the key.',
      },
      404: {
        description: "No such key in the workspace (another workspace's, or a `key_id` that is not a UUID).",
        examples: [{ summary: 'Unknown key', message: catalogue.admin.ids.unknown.apiKey(ids.apiKey) }],
      },
    },
  },

  getWebhook: {
    summary: 'The webhook: its URLs, whether it is active, its last call',
    description:
      'The `webhook status` document and the recruitment webhook’s URL (the same endpoint and token). Never the ' +
      'token: it is shown once, when generated.',
    success: {
      200: {
        description: 'The webhook.',
        schema: 'WebhookDetail',
        examples: {
          webhook: {
            summary: 'Active, called yesterday',
            value: {
              ...exampleWebhookStatus,
              last_call_at: '2026-11-20T17:42:10.000Z',
              recruitment_url: exampleRecruitmentUrl,
            },
          },
        },
      },
    },
    errors: {
      404: {
        description: 'The workspace has no webhook yet (`POST /webhook/token` generates it).',
        examples: [{ summary: 'No webhook yet', message: catalogue.admin.webhook.notGenerated }],
      },
    },
  },

  generateWebhookToken: {
    summary: 'Generate the webhook, or a new token for it',
    description:
      '« Générer le webhook » the first time, « Régénérer le jeton » after: the `webhook generate` document, its ' +
      'token (`crm_whk_…`) in this answer only. A new token replaces the old one, which fails from its next call ' +
      'on. Written with its audit entry (`webhook.token_generated`). No body, or `{}`.',
    success: {
      201: {
        description: 'The endpoint, its URL and its token: shown once.',
        schema: 'WebhookToken',
        examples: {
          generated: {
            summary: 'Generated',
            value: {
              endpoint_id: ids.endpoint,
              url: exampleWebhookUrl,
              token: 'crm_whk_0123456789abcdefghijklmnopqrstuv',
            },
          },
        },
      },
    },
    errors: {
      400: {
        description: 'A body other than none or `{}`: this operation takes none.',
        examples: [
          {
            summary: 'A field',
            message: catalogue.body.unknownField('token'),
            details: { field: 'token', message: catalogue.body.unknownField('token') },
          },
        ],
      },
    },
  },

  setWebhookActive: {
    summary: 'Enable or disable the webhook',
    description:
      'A disabled webhook answers 401 on both webhook routes, from its next call on; enabling it again keeps its ' +
      'token. Written with its audit entry (`webhook.enabled` or `webhook.disabled`).',
    requestBody: {
      schema: 'WebhookActivation',
      description: 'Whether the webhook takes calls.',
      examples: { disable: { summary: 'Disable', value: { active: false } } },
    },
    success: {
      200: {
        description: 'The `webhook status` document.',
        schema: 'WebhookStatus',
        examples: {
          disabled: { summary: 'Disabled', value: { ...exampleWebhookStatus, active: false, last_call_at: null } },
        },
      },
    },
    errors: {
      404: {
        description: 'The workspace has no webhook yet (`POST /webhook/token` generates it).',
        examples: [{ summary: 'No webhook yet', message: catalogue.admin.webhook.notGenerated }],
      },
    },
  },
};
