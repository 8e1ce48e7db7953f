import type { SeedDescription, SeedOutput } from '../../tools/seed/seed';

/**
 * The small workspace every model-based sequence gets for itself: two sales stages that the API
 * may use, one it may not (Closé), an inactive pipeline, two members, two tags, a key with every
 * scope and one without prospects:write, a prospect on the first stage and one already sold.
 */
export const modelWorkspace: SeedDescription = {
  workspace: { name: 'Modèle' },
  members: [
    { key: 'alice', name: 'Alice Martin' },
    { key: 'bob', name: 'Bob Durand' },
  ],
  tags: [
    { key: 'vip', name: 'VIP' },
    { key: 'hot', name: 'Chaud' },
  ],
  pipelines: [
    {
      key: 'sales',
      name: 'Ventes',
      is_default: true,
      stages: [
        { key: 'new', name: 'Nouveau', type: 'Appointment Setting' },
        { key: 'fu', name: 'Relance', type: 'Follow up' },
        { key: 'won', name: 'Closé', type: 'Follow up' },
      ],
    },
    { key: 'archive', name: 'Archives', active: false, stages: [{ key: 'old', name: 'Ancien', type: 'Follow up' }] },
  ],
  api_keys: [
    { key: 'full', name: 'Zapier', scopes: ['*'] },
    { key: 'notes', name: 'Notes seulement', scopes: ['notes:write', 'tags:write'] },
  ],
  webhook: { active: true },
  prospects: [
    { key: 'lea', first_name: 'Léa', email: 'lea@modele.test', phone: '+33700000009', pipeline: 'sales', stage: 'new' },
    { key: 'sold', email: 'vendu@modele.test', pipeline: 'sales', stage: 'won', closer: 'bob', tags: ['vip'] },
  ],
};

export type KeyName = 'full' | 'notes';

/** `active`: its pipeline is active, so PATCH may target it (docs/api.md#update-a-prospect). */
export type Stage = { id: string; name: string; pipelineId: string; protected: boolean; active: boolean };

/** What a sequence knows of its workspace: ids from the seed, names and rules from the description. */
export type World = {
  workspaceId: string;
  defaultPipelineId: string;
  firstStageId: string;
  stages: Stage[];
  members: { alice: string; bob: string };
  tags: { id: string; name: string }[];
  keys: Record<KeyName, { id: string; secret: string; scopes: readonly string[] }>;
  webhook: { endpointId: string; token: string };
  prospects: { lea: string; sold: string };
};

const required = <T>(value: T | undefined | null, what: string): T => {
  if (value === undefined || value === null) throw new Error(`seed output lacks ${what}`);
  return value;
};

export function worldOf(seed: SeedOutput): World {
  const sales = required(seed.pipelines.sales, 'sales');
  const archive = required(seed.pipelines.archive, 'archive');
  const stage = (pipelineId: string, id: string | undefined, name: string): Stage => ({
    id: required(id, name),
    name,
    pipelineId,
    protected: name === 'Closé',
    active: pipelineId === sales.id,
  });
  const key = (name: KeyName, scopes: readonly string[]) => ({ ...required(seed.api_keys[name], name), scopes });
  const webhook = required(seed.webhook, 'webhook');
  return {
    workspaceId: seed.workspace_id,
    defaultPipelineId: sales.id,
    firstStageId: required(sales.stages.new, 'new'),
    stages: [
      stage(sales.id, sales.stages.new, 'Nouveau'),
      stage(sales.id, sales.stages.fu, 'Relance'),
      stage(sales.id, sales.stages.won, 'Closé'),
      stage(archive.id, archive.stages.old, 'Ancien'),
    ],
    members: { alice: required(seed.members.alice, 'alice'), bob: required(seed.members.bob, 'bob') },
    tags: [
      { id: required(seed.tags.vip, 'vip'), name: 'VIP' },
      { id: required(seed.tags.hot, 'hot'), name: 'Chaud' },
    ],
    keys: { full: key('full', ['*']), notes: key('notes', ['notes:write', 'tags:write']) },
    webhook: { endpointId: webhook.endpoint_id, token: webhook.token },
    prospects: { lea: required(seed.prospects.lea, 'lea'), sold: required(seed.prospects.sold, 'sold') },
  };
}
