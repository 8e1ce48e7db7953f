/**
 * The domain's model: who calls (a principal), what a prospect, a candidate, a note, a change-log entry, a webhook call, a
 * subscription and its deliveries, and a workspace's configuration are, whatever stores them. Storage maps its items to these types
 * (lib/storage/table-items.ts, lib/storage/workspace-config.ts add keys, item types and index
 * attributes); use cases and views read and build them. Types, the defaults a workspace has when
 * it says nothing (and how a stored value falls back to them), how a name refers to a pipeline,
 * a stage or a tag (the protected stages among them), what an id and an e-mail address are, the pipelines
 * `GET /pipelines` lists, and the errors by which a use case refuses (the domain's errors, mapped to HTTP by
 * lib/http/middleware/route.ts): nothing here imports another module, so every layer may import it.
 */

/** Who is calling, as the authorizer established it: the workspace and the credential used. */
export type ApiKeyPrincipal = { kind: 'api-key'; workspaceId: string; keyId: string; scopes: readonly string[] };
/**
 * A webhook call also carries its workspace's phone settings, copied onto the endpoint item and
 * returned by the authorizer's one write: the lead webhook knows how to match phones before its
 * first read (docs/api.md#phone-matching); absent, the defaults (exact matching, region FR).
 */
export type WebhookPrincipal = { kind: 'webhook'; workspaceId: string; endpointId: string; phone?: PhoneSettings };
/** docs/api.md#settings-api: what a member of a workspace may do; `admin` may do everything a `member` may. */
export type MemberRole = 'admin' | 'member';

/**
 * A signed-in person (docs/adr/0013-member-sign-in.md): their e-mail (the user name) and token, and on a route of one
 * workspace their membership of it, read strongly consistent by the authorizer.
 */
export type MemberPrincipal = {
  kind: 'member';
  email: string;
  /** The access token's `jti` and `iat` (epoch seconds): what a sign-out is decided against. */
  tokenId: string;
  issuedAt: number;
  membership?: { workspaceId: string; memberId: string; role: MemberRole };
};
export type Principal = ApiKeyPrincipal | WebhookPrincipal | MemberPrincipal;

/**
 * What a read of one workspace needs of its caller, an API key or a member: the workspace alone, so the Prospect
 * API's use cases serve the settings API too (docs/api.md#settings-api).
 */
export type WorkspaceCaller = { workspaceId: string };

/** A webhook body as the service read it (JSON object or flat form): field name → value as sent. */
export type WebhookFields = Record<string, unknown>;

/** The contact value a look-up names (GET /prospects?…): one of the three the lead webhook matches on. */
export type ContactLookup = { field: 'email' | 'phone' | 'social_url'; value: string };

/**
 * Who made a write, stamped on what it writes so that the event built from the change stream can
 * name it: the API key id, the webhook's endpoint id, the undone change-log entry id, or null
 * (admin command line). An undo made by a member through the settings API also names that member
 * (docs/api.md#outbound-events): `member_id`, absent for the admin command line's undo.
 */
export type ActorKind = 'api_key' | 'webhook' | 'undo' | 'admin';
export type Actor = { kind: ActorKind; id: string | null; member_id?: string };

/** A record as a write makes it: every new write names its actor, which records stored before actors were stamped lack. */
export type Stamped<T extends { actor?: Actor }> = T & { actor: Actor };

/** A prospect. Every write raises its `version`: undo and the change log condition on it. */
export type Prospect = {
  id: string;
  workspace_id: string;
  pipeline_id: string | null;
  stage_id: string | null;
  setter_id: string | null;
  closer_id: string | null;
  next_follow_up_at: string | null;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  phone: string | null;
  social_url: string | null;
  source: string | null;
  /** Stored as a DynamoDB string set: adding a present tag or removing an absent one is a no-op the condition sees. Absent when empty. */
  tag_ids?: Set<string>;
  version: number;
  created_at: string;
  updated_at: string;
  /** Who made the last write (every write sets it); absent on a prospect no write has touched since actors were stamped. */
  actor?: Actor;
  /** The custom fields' values by key, each in its answered form (docs/api.md#custom-fields); absent when none is set. */
  fields?: FieldValues;
};

/**
 * A custom field's definition (docs/api.md#custom-fields): `key` never changes, `options` only for the two choice
 * types (null otherwise), `aliases` the names a form may send it under, `update` what a known contact's lead does to
 * a value already set.
 */
export type FieldType = 'text' | 'number' | 'date' | 'boolean' | 'choice' | 'multi_choice';
export type FieldUpdateRule = 'always' | 'if_empty';
export type FieldDefinition = {
  key: string;
  label: string;
  type: FieldType;
  options: string[] | null;
  aliases: string[];
  update: FieldUpdateRule;
};
/**
 * What a deleted field leaves in the configuration (docs/adr/0016-custom-fields-storage.md): its key, kept from reuse,
 * and while its values are being removed from the table, `purging`, with `purged_through`, where the purge stopped (a
 * position in the walk of the workspace's prospects, lib/domain/fields/field-purge.ts) once it has begun.
 */
export type DeletedField = { key: string; deleted_at: string; purging?: boolean; purged_through?: string };
export type FieldEntry = FieldDefinition | DeletedField;
/** A value in its answered form: text, number, boolean, `YYYY-MM-DD` date, option or options. */
export type FieldValue = string | number | boolean | string[];
export type FieldValues = Record<string, FieldValue>;

export const isDeletedField = (entry: FieldEntry): entry is DeletedField => 'deleted_at' in entry;

/** How a change of a custom field's value is named, in the change log, `changed` and events: `fields.<key>`. */
export const fieldChangeName = (key: string): `fields.${string}` => `fields.${key}`;

/** The custom field's key a change is named by (`fields.<key>`), or none for a change of another field. */
export const fieldKeyOfChange = (field: string): string | undefined =>
  field.startsWith('fields.') ? field.slice('fields.'.length) : undefined;

/** A prospect's stored values with some set, or cleared (null): what its item holds after a change of them. */
export function withFieldValues(
  stored: FieldValues | undefined,
  values: Readonly<Record<string, FieldValue | null>>,
): FieldValues {
  const result: FieldValues = { ...stored };
  for (const [key, value] of Object.entries(values)) {
    if (value === null) delete result[key];
    else result[key] = value;
  }
  return result;
}

/** The fields a workspace defines, in creation order, deleted ones left out. */
export const liveFields = (config: Pick<WorkspaceConfig, 'fields'>): FieldDefinition[] =>
  config.fields.filter((entry): entry is FieldDefinition => !isDeletedField(entry));

/** A candidate of a recruitment pipeline. */
export type Candidate = {
  id: string;
  workspace_id: string;
  pipeline_id: string;
  column_id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  position: string | null;
  source: string;
  version: number;
  created_at: string;
  /**
   * Its last application: its creation, then each time the same e-mail applies to the same pipeline again (the
   * retention counts from it: docs/data-model.md, "Candidate"). Shown in no answer.
   */
  updated_at: string;
  /** The webhook endpoint that created it; absent on a candidate created before actors were stamped. */
  actor?: Actor;
};

/**
 * A candidate's note only: written with the candidate's creation (`first`) or because a known
 * candidate applied again (`again`, which the event `candidate.application_received` tells).
 */
export type NoteApplication = 'first' | 'again';

/** A note on a prospect or a candidate (`record_id`). Notes are never changed nor deleted. */
export type Note = {
  id: string;
  workspace_id: string;
  record_id: string;
  content: string;
  /** The note's date: backfilled when the caller gave a valid past one, else the reception time. */
  date: string;
  created_at: string;
  /** The API key that wrote it, or null for a webhook or the admin tool. */
  key_id: string | null;
  /** Who wrote it; absent on a note written before actors were stamped. */
  actor?: Actor;
  application?: NoteApplication;
};

/** What an entry changed: a field of the prospect, or a custom field's value (`fields.<key>`). */
export type ChangeLogField = 'stage' | 'setter' | 'closer' | 'follow_up' | 'tags' | 'note' | `fields.${string}`;

/**
 * One changed field of a prospect, with the API key used and the values before and after (docs/api.md#change-log):
 * ids and timestamps as strings, a custom field's values in their answered form.
 */
export type ChangeLogEntry = {
  id: string;
  workspace_id: string;
  prospect_id: string;
  key_id: string;
  field: ChangeLogField;
  before: FieldValue | null;
  after: FieldValue | null;
  /** For a stage entry: the pipelines before and after, so an undo restores the pipeline too. */
  pipeline_before?: string | null;
  pipeline_after?: string | null;
  at: string;
  /**
   * The prospect's version right after this change: undo is refused once it moved on. Null for a
   * note entry, which is never undone (the API never deletes a note).
   */
  prospect_version: number | null;
  undone_at: string | null;
};

export type WebhookRoute = 'ingest-lead' | 'recruitment';

/** One call of a webhook, as its journal keeps it for 30 days (docs/api.md#webhook-call-journal). */
export type WebhookCall = {
  id: string;
  workspace_id: string;
  endpoint_id: string;
  at: string;
  route: WebhookRoute;
  status: number;
  /** `created`, `existing`, or the error code answered. */
  outcome: string;
  record_id: string | null;
  placement: string | null;
  /** Where a lead call left its prospect (the answer's `pipeline_id`, `stage_id`); absent for any other call. */
  pipeline_id?: string | null;
  stage_id?: string | null;
  warnings: string[];
  /** The French message a refusal answered (its `error.message`); absent for a success. */
  message?: string;
  request_id: string | null;
  /**
   * Kept only for an authenticated call that did not succeed: the body as received (its first
   * 64 KB, `body_truncated` when it was longer), and how to read it.
   */
  body?: string;
  body_base64?: boolean;
  body_truncated?: boolean;
  content_type?: string | null;
  /** On the entry that counts a minute's refusals past the 10th: how many it counts. Absent: 1. */
  count?: number;
};

/**
 * A subscription of a workspace to outbound events: where they are POSTed, and which. Its signing
 * secrets are kept apart (`SigningSecrets`): only the delivery function reads them.
 */
export type Subscription = {
  id: string;
  workspace_id: string;
  url: string;
  events: string[];
  active: boolean;
  created_at: string;
};

/** The signing secrets of one subscription. */
export type SigningSecrets = {
  workspace_id: string;
  subscription_id: string;
  /** `whsec_…`: the Standard Webhooks secret that signs every delivery, printed once, never listed. */
  secret: string;
  /** The secret the last rotation replaced: it signs too, until `previous_until` (ISO 8601). */
  previous_secret?: string;
  previous_until?: string;
  rotated_at?: string;
};

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/**
 * One event for one subscription. Its id is derived from the event id and the subscription id
 * (lib/storage/table-items.ts `derivedTimeOrderedId`), so it is created once however often the stream delivers the
 * write. Kept 30 days (`expires_at`, in seconds).
 */
export type Delivery = {
  id: string;
  workspace_id: string;
  subscription_id: string;
  event_id: string;
  event_type: string;
  /** The exact JSON body POSTed (`{ type, timestamp, data }`), the same bytes on every attempt. */
  payload: string;
  status: DeliveryStatus;
  /** Every attempt made, redeliveries included. */
  attempts: number;
  /** The step of the retry schedule the next scheduled attempt runs (lib/domain/events/retry-schedule.ts). */
  step: number;
  /** An attempt in progress: its step and start, so a duplicate queue message does not POST twice. */
  claimed_step?: number;
  claimed_at?: string;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  expires_at: number;
};

export type Stage = { id: string; name: string; type: string; order: number };
export type Column = { id: string; name: string; order: number };
/**
 * A member of a workspace (docs/api.md#sign-in): a setter or closer, and with an e-mail a person who may sign in.
 * `role` absent on members stored before roles: `member`. `removed_at` set: the person lost access, the id
 * stays valid as a setter or closer.
 */
export type Member = {
  id: string;
  name: string;
  email: string | null;
  role?: MemberRole;
  removed_at?: string | null;
};
export type Tag = { id: string; name: string };
export type SalesPipeline = {
  id: string;
  name: string;
  is_default: boolean;
  active: boolean;
  position: number;
  stages: Stage[];
};
export type RecruitmentPipeline = {
  id: string;
  name: string;
  is_default: boolean;
  active: boolean;
  position: number;
  columns: Column[];
};
export type Workspace = { id: string; name: string; created_at: string; endpoint_id?: string };

/** A workspace's configuration: what its routes resolve references against, and its settings. */
export type WorkspaceConfig = {
  /** None: no such workspace, nothing configured. */
  workspace: Workspace | undefined;
  /** Each as stored, or its default when the workspace never set it (none: every default). */
  settings: WorkspaceSettings;
  members: Member[];
  tags: Tag[];
  salesPipelines: SalesPipeline[];
  recruitmentPipelines: RecruitmentPipeline[];
  /** The custom fields, deleted ones as their tombstones, in creation order. */
  fields: FieldEntry[];
};

/**
 * How the lead webhook compares phones in a workspace (docs/api.md#workspaces): `exact`, the phone as sent, or
 * `e164`, its E.164 form read in `phone_region` (ISO 3166 country code) when it has no `+`.
 */
export type PhoneMatchingMode = 'exact' | 'e164';
export type PhoneSettings = { phone_matching: PhoneMatchingMode; phone_region: string };
export const defaultPhoneSettings: Readonly<PhoneSettings> = { phone_matching: 'exact', phone_region: 'FR' };

/**
 * The phone settings a stored value says (attributes `phone_matching` and `phone_region` of the
 * configuration item, of a webhook endpoint, or the authorizer's context): an absent or unreadable
 * value is its default.
 */
export function phoneSettingsOf(stored: object | undefined): PhoneSettings {
  const { phone_matching: matching, phone_region: region } = (stored ?? {}) as Record<string, unknown>;
  return {
    phone_matching: matching === 'e164' || matching === 'exact' ? matching : defaultPhoneSettings.phone_matching,
    phone_region: typeof region === 'string' && /^[A-Z]{2}$/.test(region) ? region : defaultPhoneSettings.phone_region,
  };
}

/**
 * A workspace's settings (docs/api.md#workspaces), attributes of its configuration item, each with the value a
 * workspace that never set it has: how the lead webhook compares phones, the time zone (an IANA name) in which the
 * workspace's days begin and end, and how many months its prospects and candidates are kept (null: until erased).
 */
export type WorkspaceSettings = PhoneSettings & { time_zone: string; retention_months: number | null };
export const defaultWorkspaceSettings: Readonly<WorkspaceSettings> = {
  ...defaultPhoneSettings,
  time_zone: 'Europe/Paris',
  retention_months: null,
};

/**
 * The settings a configuration edit sets (`PATCH /workspaces/{w}`, `workspace set --time-zone`, `--retention-months`),
 * each one given replacing the stored value, a null one removing it (its default). The phone settings are not among
 * them: their own write also copies them to the webhook's endpoint and may have to index the prospects first
 * (docs/data-model.md, "Phone matching in E.164").
 */
export type WorkspaceSettingsChange = Partial<Pick<WorkspaceSettings, 'time_zone' | 'retention_months'>>;

/**
 * The settings a stored configuration item says; an absent or unreadable value is its default. A time zone is stored
 * only once checked against the time zone database (lib/domain/time-zone.ts), a retention once checked against its
 * range (lib/domain/retention.ts).
 */
export function workspaceSettingsOf(stored: object | undefined): WorkspaceSettings {
  const { time_zone: timeZone, retention_months: months } = (stored ?? {}) as Record<string, unknown>;
  return {
    ...phoneSettingsOf(stored),
    time_zone: typeof timeZone === 'string' && timeZone !== '' ? timeZone : defaultWorkspaceSettings.time_zone,
    retention_months: Number.isInteger(months) && (months as number) > 0 ? (months as number) : null,
  };
}

/**
 * Names as references (docs/api.md#names-as-references): the one comparison of pipeline, stage and tag names, wherever
 * a name is a reference (bodies, the DELETE path, the lead webhook, the seed's refusals, the
 * protected stages). NFC so that `é` typed as `e` + U+0301 is `é`; surrounding white space trimmed
 * (String#trim knows Unicode spaces, NBSP included); `toLowerCase`, not `toLocaleLowerCase`, so the
 * result never depends on a locale (Turkish `I`), and `ß` stays apart from `ss` (lower-casing, not
 * full case folding). NFC again after lower-casing, which can decompose (`İ` → `i` + U+0307).
 */
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every record's id is a UUID, stored in lower case; anything else names nothing and never enters a key. */
export const isUuid = (value: unknown): value is string => typeof value === 'string' && uuidPattern.test(value);

export const nameKey = (name: string): string => name.normalize('NFC').trim().toLowerCase().normalize('NFC');

export const sameName = (a: string, b: string): boolean => nameKey(a) === nameKey(b);

/** A reference is an id (UUIDs compare ignoring case and padding) or else a name. */
export function findByIdOrName<T extends { id: string; name: string }>(
  items: readonly T[],
  reference: string,
): T | undefined {
  const id = reference.trim().toLowerCase();
  const key = nameKey(reference);
  return items.find((item) => item.id === id) ?? items.find((item) => nameKey(item.name) === key);
}

/**
 * Stages a sale is entered in, in the application only (docs/api.md#protected-stages), however spelt
 * or encoded: the keys of Closé and Acompte, as `nameKey` makes them (a literal, which bundles drop
 * where no stage is checked; test/unit/names.test.ts holds them to `nameKey`).
 */
export const protectedStageKeys: readonly string[] = ['closé', 'acompte'];

export const isProtectedStage = (stage: { name: string }): boolean => protectedStageKeys.includes(nameKey(stage.name));

/**
 * Domain errors. lib/http/middleware/route.ts is the one place that turns them into HTTP
 * answers, per route error shape. Messages come from the catalogue (lib/messages.ts): they reach people.
 */
export abstract class DomainError extends Error {
  readonly details: unknown;
  constructor(message: string, details?: unknown, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.details = details;
  }
}

/** Body or parameter that cannot be accepted as sent. */
export class InvalidInputError extends DomainError {}

/** Missing, invalid or revoked credential, disabled webhook, credential in the URL. */
export class UnauthorizedError extends DomainError {}

/** The API key lacks the scope of the route. */
export class ForbiddenError extends DomainError {}

/** Prospect (or candidate, or pipeline) that does not exist in the caller's workspace. */
export class NotFoundError extends DomainError {}

/** A move from or to a protected stage (Closé, Acompte). */
export class ProtectedStageError extends DomainError {}

/** Several records answer to one name, or a concurrent request holds the resource. */
export class ConflictError extends DomainError {}

/** A stage, tag or member that the workspace does not have; a workspace lacking what the call needs. */
export class UnknownReferenceError extends DomainError {}

export class RateLimitedError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** Webhook URL without endpoint_id. */
export class EndpointIdMissingError extends DomainError {}

/** endpoint_id that is not a UUID. */
export class EndpointIdMalformedError extends DomainError {}

/** A well-formed endpoint_id that designates no webhook. */
export class UnknownEndpointError extends DomainError {}

/** DynamoDB still failing after the bounded retries: the caller should retry later. */
export class StorageUnavailableError extends DomainError {}

/** An Idempotency-Key already used with another body (docs/api.md#idempotency-keys). */
export class IdempotencyKeyReusedError extends DomainError {}

/** An Idempotency-Key whose first call is still running (docs/api.md#idempotency-keys): retry in a second. */
export class IdempotencyKeyInFlightError extends DomainError {}

/**
 * The one rule for what an address is (docs/api.md#e-mail-addresses), on both webhooks and in
 * the seed. When two are the same contact is the markers' rule (`emailKey`, lib/storage/table-items.ts).
 *
 * The shape is the "practical" one zod applies to ASCII (dot-atoms of letters, digits and `_'+-`,
 * a dotted domain, a top-level label of two letters or more), with letters, marks and digits taken
 * from all of Unicode as RFC 6531 allows (`hélène@exemple.fr`, `用户@例子.广告`), and punycode
 * top-level labels (`xn--…`). Quoted local parts and IP-literal domains stay refused: no form sends them.
 */
const atom = String.raw`[\p{L}\p{M}\p{N}_'+\-]`;
const label = String.raw`[\p{L}\p{M}\p{N}][\p{L}\p{M}\p{N}\-]*`;
const emailPattern = new RegExp(
  String.raw`^(?:${atom}+\.)*${atom}*[\p{L}\p{M}\p{N}_+\-]@(?:${label}\.)+(?:[\p{L}\p{M}]{2,}|[xX][nN]--[a-zA-Z0-9\-]+)$`,
  'u',
);

/** Longest address read (RFC 5321's path limit less the angle brackets). */
export const maxEmailLength = 254;

/** Whether `text` (already trimmed) is an address; NFC first, so a decomposed `é` is an `é`. */
export const isEmailAddress = (text: string): boolean =>
  text.length <= maxEmailLength && emailPattern.test(text.normalize('NFC'));

/** The pattern as JSON Schema and OpenAPI validators read it (ECMA-262 with the `u` flag). */
export const emailPatternSource = emailPattern.source;

export type PipelineListing = {
  pipelines: {
    id: string;
    name: string;
    is_default: boolean;
    stages: { id: string; name: string; type: string; order: number }[];
  }[];
  tags: { id: string; name: string }[];
};

/** The members GET /members lists: what an integration needs to name a setter or a closer, no e-mail. */
export type AssignableMemberListing = { members: { id: string; name: string }[] };

/**
 * GET /members (docs/api.md#list-members): every member, removed ones included since their ids stay valid setters
 * and closers, by name as French readers sort them (then by id, so that two namesakes keep one order).
 */
export function listAssignableMembers(config: WorkspaceConfig): AssignableMemberListing {
  return {
    members: [...config.members]
      .sort((a, b) => a.name.localeCompare(b.name, 'fr') || a.id.localeCompare(b.id))
      .map((member) => ({ id: member.id, name: member.name })),
  };
}

/** GET /pipelines (docs/api.md#list-pipelines): the active sales pipelines, stages in board order, and the tags. */
export function listActivePipelines(config: WorkspaceConfig): PipelineListing {
  return {
    pipelines: config.salesPipelines
      .filter((pipeline) => pipeline.active)
      .sort((a, b) => a.position - b.position)
      .map((pipeline) => ({
        id: pipeline.id,
        name: pipeline.name,
        is_default: pipeline.is_default,
        stages: [...pipeline.stages]
          .sort((a, b) => a.order - b.order)
          .map((stage) => ({ id: stage.id, name: stage.name, type: stage.type, order: stage.order })),
      })),
    tags: [...config.tags]
      .sort((a, b) => a.name.localeCompare(b.name, 'fr'))
      .map((tag) => ({ id: tag.id, name: tag.name })),
  };
}
