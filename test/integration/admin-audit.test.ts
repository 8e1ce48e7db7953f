import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { createApiKey, revokeApiKey } from '../../lib/settings/api-keys';
import { listAudit } from '../../lib/settings/audit';
import { changeLogEntries } from '../../tools/admin/use-cases/changelog';
import { undoChangeLogEntry } from '../../lib/settings/changelog-undo';
import { addTag, renameTag } from '../../lib/settings/config-edits';
import { addMember, changeRole, inviteAgain, removeMember } from '../../lib/settings/members';
import {
  createSubscription,
  deleteSubscription,
  rotateSubscriptionSecret,
  setSubscriptionActive,
} from '../../lib/settings/subscriptions';
import { generateWebhook, regenerateWebhook, setWebhookActive } from '../../lib/settings/webhooks';
import { productionSecretsDeps } from '../../lib/storage/client';
import { updateProspect } from '../../lib/domain/prospect/update-prospect';
import { keys } from '../../lib/storage/table-items';
import { recordingIdentityProvider } from '../support/recording-identity';
import { countRoundTrips } from '../support/round-trips';
import { aWorkspace, seedTestWorkspace } from '../support/seed';

/**
 * The audit log (docs/api.md#audit-log) on DynamoDB Local: every change of keys, the webhook, members, tags,
 * subscriptions and undos writes one audit entry naming the acting member (null from the command line), in the change's
 * own transaction, and no stored entry ever holds a secret (key values, webhook tokens, signing
 * secrets, passwords). Replays and redeliveries are covered with their flows
 * (admin-webhook-calls, admin-subscriptions).
 */

const deps = productionSecretsDeps();
afterAll(() => deps.db.destroy());

const auditItems = async (workspaceId: string) =>
  (
    await deps.db.send(
      new QueryCommand({
        TableName: deps.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.auditPk(workspaceId) },
        ConsistentRead: true,
      }),
    )
  ).Items ?? [];

/** The secrets' forms (docs/api.md#settings-api) and every secret a test saw: none may be in the audit log. */
const secretForms = ['crm_key_', 'crm_whk_', 'whsec_'];

it('writes one entry per change, with the acting member, and never a secret', async () => {
  const seed = await seedTestWorkspace(
    aWorkspace({
      webhook: undefined,
      members: [
        { key: 'alice', name: 'Alice Martin', email: 'alice@acme.test', role: 'admin' },
        { key: 'bob', name: 'Bob Durand', email: 'bob@acme.test' },
      ],
    }),
  );
  const ws = seed.workspace_id;
  const alice = seed.members.alice as string;
  const bob = seed.members.bob as string;
  const identity = recordingIdentityProvider();
  const secrets: string[] = [];
  const steps: [string, string | null][] = [];
  const step = async (action: string, memberId: string | null, change: () => Promise<unknown>) => {
    await change();
    steps.push([action, memberId]);
    const items = await auditItems(ws);
    expect(items).toHaveLength(steps.length);
  };

  const key = await createApiKey(deps, { workspaceId: ws, name: 'Zapier', actingMemberId: alice });
  secrets.push(key.secret);
  steps.push(['api_key.created', alice]);
  await step('api_key.revoked', null, () => revokeApiKey(deps, { workspaceId: ws, keyId: key.id }));
  // Revoking again changes nothing: no entry.
  await revokeApiKey(deps, { workspaceId: ws, keyId: key.id });
  expect(await auditItems(ws)).toHaveLength(steps.length);

  const generated = await generateWebhook(deps, ws, 'http://crm.test', alice);
  secrets.push(generated.token);
  steps.push(['webhook.token_generated', alice]);
  const regenerated = await regenerateWebhook(deps, ws, 'http://crm.test', alice);
  secrets.push(regenerated.token);
  steps.push(['webhook.token_generated', alice]);
  await step('webhook.disabled', alice, () => setWebhookActive(deps, ws, false, 'http://crm.test', alice));
  await step('webhook.enabled', null, () => setWebhookActive(deps, ws, true, 'http://crm.test'));

  const subscription = await createSubscription(deps, {
    workspaceId: ws,
    url: 'https://exemple.fr/crm?token=le-jeton-du-receveur',
    network: 'local',
    actingMemberId: alice,
  });
  secrets.push(subscription.secret, 'le-jeton-du-receveur');
  steps.push(['subscription.created', alice]);
  await step('subscription.disabled', alice, () => setSubscriptionActive(deps, ws, subscription.id, false, alice));
  await step('subscription.enabled', alice, () => setSubscriptionActive(deps, ws, subscription.id, true, alice));
  const rotated = await rotateSubscriptionSecret(deps, ws, subscription.id, alice);
  secrets.push(rotated.secret);
  steps.push(['subscription.secret_rotated', alice]);
  await step('subscription.deleted', alice, () => deleteSubscription(deps, ws, subscription.id, alice));

  const invited = await addMember(
    { ...deps, identity },
    { workspaceId: ws, actingMemberId: alice, email: 'carla@acme.test', role: 'member' },
  );
  steps.push(['member.invited', alice]);
  await step('member.invited', alice, () =>
    inviteAgain({ ...deps, identity }, { workspaceId: ws, actingMemberId: alice, memberId: bob }),
  );
  secrets.push(...identity.invitations.map((invitation) => invitation.temporaryPassword));
  await step('member.role_changed', alice, () =>
    changeRole(deps, { workspaceId: ws, actingMemberId: alice, memberId: invited.id, role: 'admin' }),
  );
  await step('member.removed', invited.id, () =>
    removeMember(deps, { workspaceId: ws, actingMemberId: invited.id, memberId: bob }),
  );

  const tag = await addTag(deps, { workspaceId: ws, name: 'Salon', actingMemberId: bob });
  steps.push(['tag.created', bob]);
  await step('tag.renamed', bob, () =>
    renameTag(deps, { workspaceId: ws, tagId: tag.id, name: 'Salon 2027', actingMemberId: bob }),
  );

  const adminKey = seed.api_keys.admin?.id as string;
  await updateProspect(
    deps,
    { kind: 'api-key', workspaceId: ws, keyId: adminKey, scopes: ['*'] },
    seed.prospects.lead as string,
    { setter_id: alice },
  );
  const [entry] = (await changeLogEntries(deps, { workspaceId: ws, prospectId: seed.prospects.lead as string }))
    .entries;
  await step('change.undone', alice, () =>
    undoChangeLogEntry(deps, { workspaceId: ws, entryId: entry?.id as string, actingMemberId: alice }),
  );

  const { entries } = await listAudit(deps, { workspaceId: ws, limit: 100 });
  expect(entries.map((listed) => [listed.action, listed.member_id]).reverse()).toEqual(steps);
  expect(entries.find((listed) => listed.action === 'change.undone')).toMatchObject({
    target_id: entry?.id,
    summary: `Modification du champ setter du prospect ${seed.prospects.lead} annulée.`,
  });
  expect(entries.find((listed) => listed.action === 'subscription.created')?.summary).toBe(
    'Abonnement vers exemple.fr créé.',
  );
  const stored = JSON.stringify(await auditItems(ws));
  for (const secret of [...secretForms, ...secrets]) expect(stored).not.toContain(secret);
  expect(secrets.filter((secret) => secret.length > 0)).toHaveLength(8);
});

it('writes the entry of a one-write change in that write: one transaction', async () => {
  const { workspace_id: ws } = await seedTestWorkspace(aWorkspace({ prospects: [] }));
  const counted = productionSecretsDeps();
  const roundTrips = countRoundTrips(counted.db);
  try {
    const key = await createApiKey(counted, { workspaceId: ws, name: 'Make' });
    expect(roundTrips.calls).toEqual(['GetItem', 'TransactWriteItems']);
    roundTrips.reset();
    await revokeApiKey(counted, { workspaceId: ws, keyId: key.id });
    expect(roundTrips.calls).toEqual(['GetItem', 'Query', 'TransactWriteItems']);
    roundTrips.reset();
    await regenerateWebhook(counted, ws, 'http://crm.test');
    expect(roundTrips.calls).toEqual(['GetItem', 'TransactWriteItems']);
    roundTrips.reset();
    await setWebhookActive(counted, ws, false, 'http://crm.test');
    expect(roundTrips.calls).toEqual(['GetItem', 'TransactWriteItems', 'GetItem']);
  } finally {
    counted.db.destroy();
  }
});
