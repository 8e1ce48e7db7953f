import { maxIdempotencyKeyLength } from '../../../lib/http/middleware/idempotency';
import { maxFilterValues } from '../../../lib/domain/prospect-list/list-query';
import { messages } from '../../../lib/messages';

/**
 * Example values of the document, consistent with each other (one workspace: the « Ventes »
 * pipeline, the « VIP » tag…). Texts meant for people are French, as the API answers them.
 */
export const exampleIds = {
  prospect: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  salesPipeline: '0b6f3a52-8c1e-4d7a-9f24-5e8b1c7d2a90',
  newStage: '5d2e8f14-3a6b-4c9d-8e7f-1a2b3c4d5e6f',
  followUpStage: 'a3bb189e-8bf9-4888-9912-ace4e6543002',
  wonStage: 'c56a4180-65aa-42ec-a945-5fd21dec0538',
  vipTag: '1f0c8a1e-6d2b-4f3a-9b7c-2d4e6f8a0b1c',
  hotTag: '9a7b3c1d-2e4f-4a6b-8c0d-1e2f3a4b5c6d',
  member: 'e4d909c2-90d0-4b1a-a3f2-4c5e6d7f8a9b',
  note: '16fd2706-8baf-433b-82eb-8c7fada847da',
  olderNote: '3f2504e0-4f89-41d3-9a0c-0305e82c3301',
  apiKey: 'b1e7c3d2-5a4f-4e6b-9c8d-7f0a1b2c3d4e',
  stageChange: 'd7a4c2e1-9b3f-4a5d-8e6c-2b1a0f9e8d7c',
  tagChange: '4e8f2a6c-1d3b-4c5e-9f7a-8b6d4c2e0a1f',
  fieldChange: '9c1e5b7a-3f2d-4e6a-8b0c-5d7f9a1e3c2b',
  talent: '886313e1-3b8a-4372-9b90-0c9aee199e5d',
  otherTalent: '5b3e9d21-7c4a-4f8e-a1d6-0e2f4b6c8a13',
  recruitmentPipeline: 'f2a8c4e6-1b3d-4e5f-8a7c-9d0e1f2a3b4c',
  otherRecruitmentPipeline: '3d5f7b9a-2c4e-4a6b-9d8f-0e1a2b3c4d5e',
  endpoint: '6ec0bd7f-11c0-43da-975e-2a8ad9ebae0b',
  workspace: '2c1d4e6f-8a0b-4c2d-9e4f-6a8b0c2d4e6f',
  invitedMember: '8f14e45f-ceea-467a-9af0-2d5b3c6e7a81',
  auditEntry: '019a8f3c-2b7d-7e41-9c5a-3d6e8f0a1b2c',
} as const;

/**
 * A `next_cursor` as the notes list issues it (lib/http/query-parameters.ts): opaque to clients, who pass it back
 * unchanged; this one points after the older example note.
 */
export const exampleCursor =
  'eyJiIjoidC1MbUtlN0NfLWREVmJrYU91NHNhNCIsImEiOiIyMDI2LTExLTE0VDA5OjEyOjQ1LjEyMFoiLCJpIjoiM2YyNTA0ZTAtNGY4OS00MWQzLTlhMGMtMDMwNWU4MmMzMzAxIn0';

/**
 * A `next_cursor` as the list of prospects issues it (docs/api.md#lists-of-prospects): opaque too, and bound to its
 * query; this one, of `?tag=VIP&limit=1` in the examples' workspace, points after the example prospect.
 */
export const exampleListCursor =
  'eyJkIjoiT3N3RWhSQlB2NW5GQU5adlVJQ0xodCIsInAiOjAsImsiOiIyMDI2LTExLTE0VDA5OjEyOjQ1LjEyMFojN2M5ZTY2NzktNzQyNS00MGRlLTk0NGItZTA3ZmMxZjkwYWU3In0';

/** Example messages, each one the service sends (lib/messages.ts), with the values of this workspace. */
export const exampleMessages = {
  unauthorized: messages.access.unauthorized,
  forbidden: messages.access.forbidden,
  rateLimited: messages.access.rateLimited,
  internal: messages.failure.internal,
  prospectNotFound: messages.prospect.notFound,
  unknownField: messages.body.unknownField('status'),
  unknownTagsField: messages.body.unknownField('tags'),
  keyReused: messages.idempotency.reused,
  keyInFlight: messages.idempotency.inFlight,
  keyTooLong: messages.idempotency.tooLong(maxIdempotencyKeyLength),
  unreadableTag: messages.path.unreadable('tag'),
  protectedStage: messages.prospect.inProtectedStage('Closé'),
  unknownStage: messages.prospect.unknownStage('Rappel'),
  unknownMember: messages.prospect.unknownMember('setter_id'),
  blankNote: messages.body.invalidField('content', messages.rules.blankNote),
  unknownTag: messages.prospect.unknownTag('Premium'),
  endpointMalformed: messages.access.endpointMalformed,
  endpointMissing: messages.access.endpointMissing,
  endpointUnknown: messages.access.endpointUnknown,
  webhookUnauthorized: messages.access.webhookUnauthorized,
  noContact: messages.lead.noContact,
  leadFailed: messages.failure.leadNotSaved,
  invalidEmail: messages.body.invalidField('email', messages.rules.emailAddress),
  nestedPayload: messages.recruitment.nestedPayload,
  recruitmentPipelineNotFound: messages.recruitment.pipelineNameNotFound('Commerciaux'),
  ambiguousPipeline: messages.recruitment.ambiguousPipeline('Développeurs'),
  noRecruitmentPipeline: messages.recruitment.noPipeline,
  notMoved: messages.lead.notMoved,
  stageNotFound: messages.lead.stageNotFound('Nouveaux', 'Ventes'),
  unknownTagIgnored: messages.lead.unknownTag('00000000-0000-4000-8000-000000000000'),
  unknownFieldIgnored: messages.lead.unknownField('entreprise'),
  futureNoteDate: messages.note.futureDate,
  invalidLimit: messages.query.invalidLimit,
  invalidCursor: messages.query.invalidCursor,
  repeatedCursor: messages.query.repeated('cursor'),
  oneContact: messages.query.oneContact,
  unreadableEmail: messages.query.unreadableContact('email'),
  contactAlone: messages.query.contactAlone('stage'),
  missingCandidateEmail: messages.candidateLookup.missingEmail,
  invalidCandidateEmail: messages.candidateLookup.invalidEmail,
  unknownCandidateParameter: messages.candidateLookup.unknownParameter('pipeline'),
  unknownListParameter: messages.lists.unknownParameter('tags'),
  repeatedSort: messages.query.repeated('sort'),
  tooManyFilterValues: messages.lists.tooManyValues('tag', maxFilterValues),
  invalidFollowUp: messages.lists.invalidFollowUp,
  invalidInstant: messages.lists.invalidInstant('created_from'),
  invalidFieldFilter: messages.lists.invalidFieldValue('fields.budget', 'Budget'),
  unknownListPipeline: messages.lists.unknownPipeline('Commerciaux'),
  unknownListStage: messages.lists.unknownStage('Rappel'),
  unknownListTag: messages.lists.unknownTag('Premium'),
  unknownListMember: messages.lists.unknownMember('closer_id'),
  unknownFieldKey: messages.fields.unknownField('budjet'),
  sessionUnauthorized: messages.session.unauthorized,
  signInRefused: messages.session.signInRefused,
  newPasswordRequired: messages.session.newPasswordRequired,
  tooManySignIns: messages.session.tooManySignIns,
  refreshRefused: messages.session.refreshRefused,
  wrongPassword: messages.session.wrongPassword,
  badResetCode: messages.session.badResetCode,
  workspaceNotFound: messages.session.workspaceNotFound,
  roleForbidden: messages.session.forbidden,
  memberRateLimited: messages.session.rateLimited,
  weakPassword: messages.body.invalidField('new_password', messages.session.weakPassword),
  unknownSessionField: messages.body.unknownField('remember'),
  invalidRoleField: messages.body.invalidField('role', messages.members.roleExpected),
  emailTaken: messages.members.emailTaken('bob.durand@acme.test'),
  memberNotFound: messages.members.unknown('8f14e45f-ceea-467a-9af0-2d5b3c6e7a82'),
  removedMember: messages.members.removed('8f14e45f-ceea-467a-9af0-2d5b3c6e7a81'),
  accountNotInvitable: messages.members.accountNotInvitable('bob.durand@acme.test', 'UNCONFIRMED'),
  memberWithoutEmail: messages.members.noEmail('8f14e45f-ceea-467a-9af0-2d5b3c6e7a81'),
  lastAdmin: messages.members.lastAdmin,
} as const;
