import { readdirSync } from 'node:fs';
import path from 'node:path';
import { credentialProviderAlias } from '../../infra/cdk/bundling';
import { authorizerEntry, eventFunctions, deployedRoutes as routes } from '../../infra/cdk/route-grants';
import { closureOf } from '../support/import-closure';

const root = new URL('../..', import.meta.url).pathname;

/**
 * Files per function, at most, to keep bundles and cold starts small and each function readable from its entry
 * (docs/performance.md). Each function is held where it now stands: a new import that grows one fails here, on
 * purpose, and whoever raises a budget says why beside it. Above these, the ceilings of the layout (`ceilings`).
 */
const budgets: Record<string, number> = {
  // Every view of a prospect shows its custom fields (lib/domain/fields/field-values.ts): one file more for each
  // function that shows one, PATCH's and the stream handler's included.
  'functions/prospect-api/list-pipelines.ts': 12,
  'functions/prospect-api/list-assignable-members.ts': 12,
  // The listing's one rule file of the custom fields (lib/domain/fields/field-definitions.ts).
  'functions/prospect-api/list-custom-fields.ts': 13,
  'functions/prospect-api/get-prospect.ts': 18,
  // Two uses on one route: the look-up by contact, which reads its query as a lead (lib/domain/lead/lead.ts, which
  // reads custom fields' values too), and the list (lib/domain/prospect-list/: its query read, what it selects, its
  // plan and pages, its cursor, in the workspace's time zone). Above the 25 of any function: a named ceiling.
  'functions/prospect-api/find-prospects.ts': 29,
  'functions/prospect-api/list-notes.ts': 19,
  'functions/prospect-api/list-changes.ts': 19,
  'functions/prospect-api/update-prospect.ts': 23,
  'functions/prospect-api/add-note.ts': 22,
  'functions/prospect-api/add-tag.ts': 21,
  'functions/prospect-api/remove-tag.ts': 20,
  // The custom fields' readers (lib/domain/fields/field-values.ts): a lead fills the workspace's fields.
  'functions/webhooks/ingest-lead.ts': 23,
  'functions/webhooks/recruitment.ts': 22,
  'functions/authorizer.ts': 12,
  'functions/settings/session/sign-in.ts': 15,
  'functions/settings/session/refresh-session.ts': 15,
  'functions/settings/session/sign-out.ts': 18,
  'functions/settings/session/change-password.ts': 18,
  'functions/settings/session/start-password-reset.ts': 15,
  'functions/settings/session/confirm-password-reset.ts': 15,
  'functions/settings/session/list-my-workspaces.ts': 15,
  'functions/settings/workspace/get-workspace.ts': 14,
  // As the tags' edits, with the time zones' rules (lib/domain/time-zone.ts, which reads timestamps with
  // lib/domain/timestamps.ts), the retention's (lib/domain/retention.ts) and the workspace's view, which the answer is.
  'functions/settings/workspace/change-workspace.ts': 24,
  'functions/settings/workspace/list-workspace-pipelines.ts': 12,
  'functions/settings/workspace/list-tags.ts': 14,
  'functions/settings/workspace/create-tag.ts': 20,
  'functions/settings/workspace/rename-tag.ts': 20,
  'functions/settings/fields/list-fields.ts': 15,
  // As the tags' edits, with the custom fields' rules (lib/domain/fields/field-definitions.ts) and their use cases.
  'functions/settings/fields/create-field.ts': 21,
  'functions/settings/fields/change-field.ts': 21,
  'functions/settings/fields/delete-field.ts': 21,
  'functions/settings/api-keys/list-api-keys.ts': 15,
  'functions/settings/api-keys/create-api-key.ts': 22,
  'functions/settings/api-keys/revoke-api-key.ts': 21,
  'functions/settings/api-keys/list-api-key-changes.ts': 21,
  'functions/settings/webhook/get-webhook.ts': 16,
  'functions/settings/webhook/generate-webhook-token.ts': 22,
  'functions/settings/webhook/set-webhook-active.ts': 22,
  // As `GET /prospects`: two uses on one route, the look-up by contact and the list.
  'functions/settings/prospects/find-workspace-prospects.ts': 29,
  'functions/settings/prospects/get-workspace-prospect.ts': 18,
  'functions/settings/prospects/list-workspace-prospect-changes.ts': 19,
  'functions/settings/prospects/undo-change.ts': 25,
  // A person's rights (docs/adr/0019-erasure-in-the-background.md): the record, its markers and the phone's E.164 form.
  // With how a copy of the person is told apart (lib/domain/erasure/person-copies.ts), shared with the export.
  'functions/privacy/erase-prospect.ts': 19,
  'functions/privacy/erase-candidate.ts': 19,
  // Everything kept about a person (docs/api.md#erasure-export-and-retention): the prospect's readers and the
  // candidate's (one use case for both kinds), the views of a journaled call and of a delivery, the walk of the
  // workspace's journal and deliveries (lib/storage/copies-of-person.ts), how a copy is told apart, the export store
  // (its port and S3), the audit entry. Above the 25 of any function: a named ceiling.
  'functions/privacy/export-prospect.ts': 33,
  'functions/privacy/export-candidate.ts': 33,
  'functions/settings/members/list-members.ts': 14,
  // The configuration's recruitment pipelines, then one e-mail's markers and candidates (lib/storage/candidate-lookup.ts).
  'functions/privacy/find-candidates.ts': 17,
  'functions/settings/members/add-member.ts': 24,
  'functions/settings/members/invite-member.ts': 24,
  'functions/settings/members/change-member-role.ts': 22,
  'functions/settings/members/remove-member.ts': 22,
  'functions/settings/workspace/list-audit.ts': 18,
  // The replay invokes the webhooks' own functions (lib/settings/webhook-functions.ts) and records its audit entry.
  // The view of a journaled call in its own module (lib/domain/webhook-call-view.ts), which the export shows too.
  'functions/settings/webhook/list-webhook-calls.ts': 20,
  'functions/settings/webhook/get-webhook-call.ts': 20,
  'functions/settings/webhook/replay-webhook-call.ts': 25,
  'functions/settings/subscriptions/list-subscriptions.ts': 16,
  'functions/settings/subscriptions/create-subscription.ts': 24,
  'functions/settings/subscriptions/update-subscription.ts': 24,
  'functions/settings/subscriptions/delete-subscription.ts': 24,
  'functions/settings/subscriptions/rotate-subscription-secret.ts': 24,
  'functions/settings/subscriptions/list-deliveries.ts': 21,
  'functions/settings/subscriptions/redeliver-delivery.ts': 24,
  // Two steps of one batch: the events' fan-out, and the follow-up schedules kept in step (lib/domain/follow-ups/).
  'functions/events/stream-handler.ts': 30,
  // The settings API's redelivery is one more kind of message, sent by the same attempt as `subscription
  // redeliver` (lib/domain/events/redeliver.ts).
  'functions/events/deliver-event.ts': 21,
  'functions/events/sweep-deliveries.ts': 16,
  // The purge records its progress on the tombstone by a configuration edit (lib/storage/config-edits.ts).
  'functions/events/purge-deleted-fields.ts': 13,
  'functions/events/sweep-follow-ups.ts': 16,
  'functions/events/send-follow-up-due.ts': 16,
  // Every minute the copies of erased records (how a copy of the person is told apart is shared with the export:
  // lib/domain/erasure/person-copies.ts); once a day the retention, which erases as the erase routes do.
  'functions/events/erase-records.ts': 17,
};

/**
 * The layout's ceilings (docs/architecture.md#files-per-function): no budget above them. A named function's ceiling
 * stands in place of `anyFunction`'s.
 */
const ceilings = {
  anyFunction: 25,
  settingsMedian: 20,
  named: {
    'functions/prospect-api/list-pipelines.ts': 12,
    'functions/webhooks/ingest-lead.ts': 23,
    'functions/prospect-api/update-prospect.ts': 23,
    'functions/authorizer.ts': 12,
    // Two uses on one route: the look-up by contact and the list.
    'functions/prospect-api/find-prospects.ts': 29,
    'functions/settings/prospects/find-workspace-prospects.ts': 29,
    // The fan-out and the follow-up schedules: two steps of one stream batch.
    'functions/events/stream-handler.ts': 30,
    // Everything kept about a person: the record and its partition, its copies in the journal and the deliveries.
    'functions/privacy/export-prospect.ts': 33,
    'functions/privacy/export-candidate.ts': 33,
  } as Record<string, number>,
};

const idempotencyFiles = ['lib/http/middleware/idempotency.ts', 'lib/storage/idempotency.ts'];
const journalMiddleware = 'lib/http/middleware/webhook.ts';

describe('what each function imports', () => {
  test('every function has a budget, and only they', () => {
    const functions = readdirSync(path.join(root, 'functions'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .map((file) => `functions/${file}`);
    const deployed = [...routes, ...eventFunctions].map((fn) => fn.entry).concat(authorizerEntry);
    expect(Object.keys(budgets).sort()).toEqual([...new Set([...functions, ...deployed])].sort());
  });

  test.each(Object.entries(budgets))('%s reaches at most %i files', (entry, budget) => {
    const files = closureOf(entry);
    if (files.length > budget)
      throw new Error(`${entry}: ${files.length} files, budget ${budget}:\n${files.join('\n')}`);
  });

  test('no budget exceeds the ceilings of the layout', () => {
    for (const [entry, budget] of Object.entries(budgets)) {
      expect([entry, budget]).toEqual([entry, Math.min(budget, ceilings.named[entry] ?? ceilings.anyFunction)]);
    }
    const settings = Object.entries(budgets)
      .filter(([entry]) => entry.startsWith('functions/settings/'))
      .map(([, budget]) => budget)
      .sort((a, b) => a - b);
    expect(settings.length).toBeGreaterThan(30);
    expect(settings[Math.floor((settings.length - 1) / 2)]).toBeLessThanOrEqual(ceilings.settingsMedian);
  });

  test('GET /pipelines carries no idempotency and no journal code', () => {
    const files = closureOf('functions/prospect-api/list-pipelines.ts');
    for (const file of [...idempotencyFiles, journalMiddleware, 'lib/storage/webhook-calls.ts']) {
      expect(files).not.toContain(file);
    }
  });

  test.each(routes.filter((route) => route.method === 'GET').map((route) => [route.entry] as const))(
    'the read route %s carries no idempotency',
    (entry) => {
      const files = closureOf(entry);
      for (const file of idempotencyFiles) expect(files).not.toContain(file);
    },
  );

  test.each([
    'functions/prospect-api/list-pipelines.ts',
    'functions/prospect-api/get-prospect.ts',
    'functions/prospect-api/list-notes.ts',
    'functions/prospect-api/list-changes.ts',
  ])('the read route %s opens no write code', (entry) => {
    const files = closureOf(entry);
    for (const file of [
      'lib/storage/conditional-writes.ts',
      'lib/storage/prospect-writes.ts',
      'lib/storage/leads.ts',
    ]) {
      expect(files).not.toContain(file);
    }
  });

  test.each(routes.filter((route) => route.credential === 'api-key').map((route) => [route.entry] as const))(
    'the Prospect API route %s composes no webhook journal',
    (entry) => {
      expect(closureOf(entry)).not.toContain(journalMiddleware);
    },
  );

  const keyOrToken = (route: (typeof routes)[number]) =>
    route.credential === 'api-key' || route.credential === 'webhook-token';

  test.each(
    routes.filter((route) => route.method !== 'GET' && keyOrToken(route)).map((route) => [route.entry] as const),
  )('the write route %s answers once per Idempotency-Key', (entry) => {
    expect(closureOf(entry)).toEqual(expect.arrayContaining(idempotencyFiles));
  });

  test.each(routes.filter((route) => !keyOrToken(route)).map((route) => [route.entry] as const))(
    'the settings route %s keeps no answer for replay',
    (entry) => {
      for (const file of idempotencyFiles) expect(closureOf(entry)).not.toContain(file);
    },
  );

  test('listing subscriptions reaches no delivery, redelivery or address policy', () => {
    const files = closureOf('functions/settings/subscriptions/list-subscriptions.ts');
    for (const file of [
      'lib/outbound/address-policy.ts',
      'lib/domain/events/deliver.ts',
      'lib/domain/events/redeliver.ts',
    ]) {
      expect(files).not.toContain(file);
    }
    expect(files).toContain('lib/settings/subscription-list.ts');
  });

  test('the counting agrees with a closure worked out by hand', () => {
    expect(closureOf('lib/domain/events/signing.ts')).toEqual(
      ['lib/domain/events/signing.ts', 'lib/domain/model.ts'].sort(),
    );
  });
});

describe('what ships apart from what describes it', () => {
  test('every file under lib/ is reached by some function, or put in its bundle by the bundling itself', () => {
    const entries = [...routes, ...eventFunctions].map((fn) => fn.entry).concat(authorizerEntry);
    const reached = new Set(entries.flatMap((entry) => closureOf(entry)));
    const bundled = Object.values(credentialProviderAlias).map((file) => path.normalize(file));
    const lib = readdirSync(path.join(root, 'lib'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .map((file) => `lib/${file}`);
    expect(lib.filter((file) => !reached.has(file) && !bundled.includes(file))).toEqual([]);
    expect(lib.length).toBeGreaterThan(50);
  });
});
