import { seedWorkspace, type SeedOutput } from '../../lib/admin/seed';
import { createDynamoClient, loadSecretsTableName } from '../../lib/storage/client';
import { productionDeps, type Deps } from '../../lib/deps';
import { routes } from '../../lib/routes';
import { ensureSecretsTable, ensureTable } from '../../lib/storage/create-table';
import { itemsPerProspect, seedProspects } from './bulk-prospects';
import { loadKeyLabels } from './load-plan';
import type { BenchResults } from './results';
import { benchWorkspace, bulkProspectCount, prospectAllocator, type Phase } from './workspace';

export const log = (message: string) => console.log(`[bench] ${message}`);

/** Each API key serves one measure only, so no measure eats into another's rate limit. */
export const coldKeyLabel = (routeId: string) => `froid-${routeId}`;
export const operationsKeyLabel = (phase: Phase) => `operations-${phase}`;
export const readsKeyLabel = (phase: Phase) => `reads-${phase}`;
export const warmUpKeyLabel = (phase: Phase) => `echauffement-${phase}`;

/** Prospects seeded with each workspace, for the measures that change one. */
const seededProspects = 300;

/** One of the two workspaces measured, with its seeded ids and secrets. */
export type Workspace = { phase: Phase; seed: SeedOutput; prospects: (count: number) => string[] };

/** What every measure shares: DynamoDB Local, both workspaces, fresh contact numbers. */
export type Bench = {
  endpoint: string;
  deps: Deps;
  workspaces: Record<Phase, Workspace>;
  fresh: () => number;
  /** The environment of every process the bench starts: no AWS credentials, DynamoDB Local. */
  childEnv: Record<string, string>;
};

/**
 * The table and the two workspaces, each with the API keys its measures use (each key used by
 * one measure only); the cold starts run in the first.
 */
export async function prepare(endpoint: string): Promise<Bench> {
  process.env.DYNAMODB_ENDPOINT = endpoint;
  process.env.TABLE_NAME = 'crm-bench';
  const tableClient = createDynamoClient({ endpoint });
  await ensureTable(tableClient, process.env.TABLE_NAME);
  // The delivery function's read names it (as `<TABLE_NAME>-secrets`, the local default) even for an unknown delivery.
  await ensureSecretsTable(tableClient, loadSecretsTableName());
  tableClient.destroy();
  const deps = productionDeps();
  const workspace = async (phase: Phase): Promise<Workspace> => {
    const coldStartKeys = phase === 'empty' ? apiKeyRoutes.map((route) => coldKeyLabel(route.id)) : [];
    const labels = [
      ...coldStartKeys,
      operationsKeyLabel(phase),
      readsKeyLabel(phase),
      warmUpKeyLabel(phase),
      ...loadKeyLabels(phase),
    ];
    const seed = await seedWorkspace(deps, benchWorkspace(labels, seededProspects));
    return { phase, seed, prospects: prospectAllocator(seed) };
  };
  const workspaces = { empty: await workspace('empty'), bulk: await workspace('bulk') };
  log(`DynamoDB Local on ${endpoint}, workspaces seeded`);
  let contacts = 0;
  return {
    endpoint,
    deps,
    workspaces,
    fresh: () => (contacts += 1),
    childEnv: {
      PATH: process.env.PATH ?? '',
      TABLE_NAME: process.env.TABLE_NAME,
      DYNAMODB_ENDPOINT: endpoint,
      AWS_REGION: 'eu-west-3',
    },
  };
}

const apiKeyRoutes = routes.filter((route) => route.credential === 'api-key');

/** Section 4: the bulk prospects, in the workspace's default pipeline, first stage. */
export async function seedBulk(deps: Deps, seed: SeedOutput): Promise<BenchResults['bulk']> {
  log(`writing ${bulkProspectCount.toLocaleString('en-US')} prospects…`);
  const sales = seed.pipelines.sales;
  const stageId = sales?.stages.Nouveau;
  if (sales === undefined || stageId === undefined) throw new Error('the bench workspace has no Ventes pipeline');
  const ms = await seedProspects(
    deps,
    { workspaceId: seed.workspace_id, pipelineId: sales.id, stageId },
    bulkProspectCount,
  );
  log(`written in ${Math.round(ms / 1000)} s`);
  return { prospects: bulkProspectCount, items: bulkProspectCount * itemsPerProspect, seconds: ms / 1000 };
}
