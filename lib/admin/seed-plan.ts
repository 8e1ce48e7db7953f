import type { Deps } from '../deps';
import { nameKey } from '../domain/names';
import { readIsoTimestamp } from '../domain/timestamps';
import { allScopes } from '../routes';
import { keys, type ItemKey } from '../storage/keys';
import type { MarkerItem, ProspectItem } from '../storage/records';
import type {
  MemberItem,
  RecruitmentPipelineItem,
  SalesPipelineItem,
  TagItem,
  WorkspaceItem,
} from '../storage/workspace-config';
import { newApiKey } from './api-keys';
import { invalidSeed, type ParsedSeedDescription, type SeedProblem } from './seed-description';
import { newEndpoint } from './webhooks';

/** Decisions 2, "Seed output": every id and secret of the new workspace, by the file's labels. */
export type SeedOutput = {
  workspace_id: string;
  members: Record<string, string>;
  tags: Record<string, string>;
  pipelines: Record<string, { id: string; stages: Record<string, string> }>;
  recruitment_pipelines: Record<string, { id: string; columns: Record<string, string> }>;
  api_keys: Record<string, { id: string; secret: string }>;
  /** Null when the description has no `webhook`. */
  webhook: { endpoint_id: string; token: string } | null;
  prospects: Record<string, string>;
};

export type SeedItem = ItemKey & Record<string, unknown>;
export type SeedPlan = { items: SeedItem[]; output: SeedOutput };

type Path = readonly PropertyKey[];
type Seed = ParsedSeedDescription;
/** What every planning step adds to: the items to write, the output to print, the problems found. */
type Planning = {
  deps: Pick<Deps, 'newId'>;
  workspaceId: string;
  now: string;
  items: SeedItem[];
  output: SeedOutput;
  problems: SeedProblem[];
};
type PlannedPipeline = { id: string; stageIds: Map<string, string>; firstStageId: string | null };
type References = {
  memberIds: Map<string, string>;
  tagIds: Map<string, string>;
  salesPipelines: Map<string, PlannedPipeline>;
  defaultPipeline: PlannedPipeline | undefined;
};

/**
 * Turns a checked description into the items of one new workspace and the output to print.
 * Labels, names and cross-references are checked here and every problem is reported at once.
 * The workspace item comes last: seed.ts writes in that order, so a seed interrupted half-way
 * leaves no workspace that the other commands would accept.
 */
export function planSeed(deps: Pick<Deps, 'clock' | 'newId'>, seed: Seed): SeedPlan {
  const workspaceId = deps.newId();
  const planning: Planning = {
    deps,
    workspaceId,
    now: deps.clock().toISOString(),
    items: [],
    output: {
      workspace_id: workspaceId,
      members: {},
      tags: {},
      pipelines: {},
      recruitment_pipelines: {},
      api_keys: {},
      webhook: null,
      prospects: {},
    },
    problems: [],
  };
  const references: References = {
    memberIds: planMembers(planning, seed.members),
    tagIds: planTags(planning, seed.tags),
    ...planSalesPipelines(planning, seed.pipelines),
  };
  planRecruitmentPipelines(planning, seed.recruitment_pipelines);
  planApiKeys(planning, seed.api_keys);
  const endpointId = seed.webhook ? planWebhook(planning, seed.webhook) : undefined;
  planProspects(planning, references, seed.prospects);

  const workspace: WorkspaceItem & ItemKey = {
    ...keys.workspace(workspaceId),
    type: 'workspace',
    id: workspaceId,
    name: seed.workspace.name,
    created_at: planning.now,
    ...(endpointId ? { endpoint_id: endpointId } : {}),
  };
  planning.items.push(workspace);

  if (planning.problems.length > 0) throw invalidSeed(planning.problems);
  return { items: planning.items, output: planning.output };
}

function planMembers(planning: Planning, members: Seed['members']): Map<string, string> {
  const ids = new Map<string, string>();
  members.forEach((member, index) => {
    const id = planning.deps.newId();
    planning.output.members[claimLabel(planning, ids, member.key ?? member.name, id, ['members', index])] = id;
    const item: MemberItem & ItemKey = {
      ...keys.member(planning.workspaceId, id),
      type: 'member',
      id,
      name: member.name,
      email: member.email ?? null,
    };
    planning.items.push(item);
  });
  return ids;
}

function planTags(planning: Planning, tags: Seed['tags']): Map<string, string> {
  const ids = new Map<string, string>();
  const names = new Map<string, Path>();
  tags.forEach((tag, index) => {
    const id = planning.deps.newId();
    planning.output.tags[claimLabel(planning, ids, tag.key ?? tag.name, id, ['tags', index])] = id;
    claimName(planning, names, tag.name, ['tags', index]);
    const item: TagItem & ItemKey = { ...keys.tag(planning.workspaceId, id), type: 'tag', id, name: tag.name };
    planning.items.push(item);
  });
  return ids;
}

function planSalesPipelines(
  planning: Planning,
  pipelines: Seed['pipelines'],
): Pick<References, 'salesPipelines' | 'defaultPipeline'> {
  const planned = new Map<string, PlannedPipeline>();
  const names = new Map<string, Path>();
  const defaultAt = defaultIndex(planning, pipelines, 'pipelines');
  let defaultPipeline: PlannedPipeline | undefined;
  pipelines.forEach((pipeline, index) => {
    const path = ['pipelines', index];
    const id = planning.deps.newId();
    const stageIds = new Map<string, string>();
    const stageNames = new Map<string, Path>();
    const stages = pipeline.stages.map((stage, order) => {
      const stageId = planning.deps.newId();
      claimLabel(planning, stageIds, stage.key ?? stage.name, stageId, [...path, 'stages', order]);
      claimName(planning, stageNames, stage.name, [...path, 'stages', order]);
      return { id: stageId, name: stage.name, type: stage.type, order };
    });
    claimName(planning, names, pipeline.name, path);
    const entry = { id, stageIds, firstStageId: stages[0]?.id ?? null };
    const label = claimLabel(planning, planned, pipeline.key ?? pipeline.name, entry, path);
    planning.output.pipelines[label] = { id, stages: Object.fromEntries(stageIds) };
    if (index === defaultAt) defaultPipeline = entry;
    const item: SalesPipelineItem & ItemKey = {
      ...keys.salesPipeline(planning.workspaceId, id),
      type: 'pipeline',
      id,
      name: pipeline.name,
      is_default: index === defaultAt,
      active: pipeline.active,
      position: index,
      stages,
    };
    planning.items.push(item);
  });
  return { salesPipelines: planned, defaultPipeline };
}

/** Recruitment pipelines may share a name (section 7.2 answers 409 to an ambiguous name). */
function planRecruitmentPipelines(planning: Planning, pipelines: Seed['recruitment_pipelines']): void {
  const labels = new Map<string, string>();
  const defaultAt = defaultIndex(planning, pipelines, 'recruitment_pipelines');
  pipelines.forEach((pipeline, index) => {
    const path = ['recruitment_pipelines', index];
    const id = planning.deps.newId();
    const columnIds = new Map<string, string>();
    const columns = pipeline.columns.map((column, order) => {
      const columnId = planning.deps.newId();
      claimLabel(planning, columnIds, column.key ?? column.name, columnId, [...path, 'columns', order]);
      return { id: columnId, name: column.name, order };
    });
    const label = claimLabel(planning, labels, pipeline.key ?? pipeline.name, id, path);
    planning.output.recruitment_pipelines[label] = { id, columns: Object.fromEntries(columnIds) };
    const item: RecruitmentPipelineItem & ItemKey = {
      ...keys.recruitmentPipeline(planning.workspaceId, id),
      type: 'recruitment_pipeline',
      id,
      name: pipeline.name,
      is_default: index === defaultAt,
      active: pipeline.active,
      position: index,
      columns,
    };
    planning.items.push(item);
  });
}

function planApiKeys(planning: Planning, apiKeys: Seed['api_keys']): void {
  const labels = new Map<string, string>();
  apiKeys.forEach((apiKey, index) => {
    const { item, secret } = newApiKey(planning.deps, {
      workspaceId: planning.workspaceId,
      name: apiKey.name,
      scopes: apiKey.scopes ?? [...allScopes],
      createdAt: planning.now,
    });
    const label = claimLabel(planning, labels, apiKey.key ?? apiKey.name, item.id, ['api_keys', index]);
    planning.output.api_keys[label] = { id: item.id, secret };
    planning.items.push(item);
  });
}

function planWebhook(planning: Planning, webhook: NonNullable<Seed['webhook']>): string {
  const { item, token } = newEndpoint(planning.deps, {
    workspaceId: planning.workspaceId,
    active: webhook.active,
    createdAt: planning.now,
  });
  planning.output.webhook = { endpoint_id: item.id, token };
  planning.items.push(item);
  return item.id;
}

function planProspects(planning: Planning, references: References, prospects: Seed['prospects']): void {
  const labels = new Map<string, string>();
  /** Marker partition key → the prospect that claimed it: a contact value used twice is refused. */
  const contactOwners = new Map<string, Path>();
  prospects.forEach((prospect, index) => {
    const path = ['prospects', index];
    const id = planning.deps.newId();
    const label = prospect.key ?? prospect.email ?? prospect.phone ?? prospect.social_url;
    if (label) planning.output.prospects[claimLabel(planning, labels, label, id, path)] = id;
    else problem(planning, path, 'donnez à ce prospect une clé (key), un e-mail, un téléphone ou un profil social');

    const place = placement(planning, references, prospect, path);
    const memberId = (field: 'setter' | 'closer'): string | null => {
      const reference = prospect[field];
      if (reference === undefined) return null;
      const found = references.memberIds.get(reference);
      if (!found) problem(planning, [...path, field], `membre « ${reference} » inconnu`);
      return found ?? null;
    };
    const setterId = memberId('setter');
    const closerId = memberId('closer');
    const followUp = prospect.next_follow_up_at
      ? readIsoTimestamp(prospect.next_follow_up_at, { zone: 'required', dateOnly: false })
      : null;
    if (followUp === undefined) {
      problem(planning, [...path, 'next_follow_up_at'], 'date ISO 8601 avec fuseau horaire invalide ou inexistante');
    }
    const tagIds = new Set<string>();
    prospect.tags.forEach((reference, tagIndex) => {
      const found = references.tagIds.get(reference);
      if (found) tagIds.add(found);
      else problem(planning, [...path, 'tags', tagIndex], `étiquette « ${reference} » inconnue`);
    });
    planContactMarkers(planning, contactOwners, prospect, id, path);

    const item: ProspectItem = {
      ...keys.prospect(planning.workspaceId, id),
      sk: 'PROSPECT',
      type: 'prospect',
      id,
      workspace_id: planning.workspaceId,
      ...place,
      setter_id: setterId,
      closer_id: closerId,
      next_follow_up_at: followUp?.toISOString() ?? null,
      first_name: prospect.first_name ?? null,
      last_name: prospect.last_name ?? null,
      email: prospect.email ?? null,
      phone: prospect.phone ?? null,
      social_url: prospect.social_url ?? null,
      source: prospect.source ?? null,
      ...(tagIds.size > 0 ? { tag_ids: tagIds } : {}),
      version: 1,
      created_at: planning.now,
      updated_at: planning.now,
    };
    planning.items.push(item);
  });
}

/** Without `pipeline`, the default pipeline; without `stage`, the pipeline's first stage. */
function placement(
  planning: Planning,
  references: References,
  prospect: Seed['prospects'][number],
  path: Path,
): { pipeline_id: string | null; stage_id: string | null } {
  const nowhere = { pipeline_id: null, stage_id: null };
  const pipeline =
    prospect.pipeline === undefined ? references.defaultPipeline : references.salesPipelines.get(prospect.pipeline);
  if (prospect.pipeline !== undefined && !pipeline) {
    problem(planning, [...path, 'pipeline'], `pipeline de vente « ${prospect.pipeline} » inconnu`);
    return nowhere;
  }
  if (!pipeline) {
    if (prospect.stage !== undefined) {
      problem(planning, [...path, 'stage'], "étape impossible : l'espace n'a aucun pipeline de vente");
    }
    return nowhere;
  }
  const stageId = prospect.stage === undefined ? pipeline.firstStageId : pipeline.stageIds.get(prospect.stage);
  if (!stageId) {
    problem(planning, [...path, 'stage'], `étape « ${prospect.stage} » inconnue dans ce pipeline`);
    return nowhere;
  }
  return { pipeline_id: pipeline.id, stage_id: stageId };
}

/** A seeded prospect owns its e-mail, phone and social URL like one the lead webhook created. */
function planContactMarkers(
  planning: Planning,
  owners: Map<string, Path>,
  prospect: Seed['prospects'][number],
  prospectId: string,
  path: Path,
): void {
  const ws = planning.workspaceId;
  const contacts = [
    ['email', prospect.email, (value: string) => keys.emailMarker(ws, value)],
    ['phone', prospect.phone, (value: string) => keys.phoneMarker(ws, value)],
    ['social_url', prospect.social_url, (value: string) => keys.socialMarker(ws, value)],
  ] as const;
  for (const [field, value, markerKey] of contacts) {
    if (!value) continue;
    const key = markerKey(value);
    const owner = owners.get(key.pk);
    if (owner) {
      problem(planning, [...path, field], `déjà utilisé par ${owner.map(String).join('.')}`);
      continue;
    }
    owners.set(key.pk, path);
    const marker: MarkerItem = { ...key, sk: 'UNIQ', type: 'marker', record_id: prospectId, workspace_id: ws };
    planning.items.push(marker);
  }
}

function problem(planning: Planning, path: Path, message: string): void {
  planning.problems.push({ path, message });
}

function claimLabel<T>(planning: Planning, taken: Map<string, T>, label: string, value: T, path: Path): string {
  if (taken.has(label)) problem(planning, [...path, 'key'], `clé « ${label} » déjà utilisée dans cette liste`);
  else taken.set(label, value);
  return label;
}

/** Decisions 2: two names equal ignoring case are refused (sales pipelines, stages of one pipeline, tags). */
function claimName(planning: Planning, taken: Map<string, Path>, name: string, path: Path): void {
  const normalized = nameKey(name);
  const owner = taken.get(normalized);
  if (owner) {
    problem(
      planning,
      [...path, 'name'],
      `nom « ${name} » déjà pris par ${owner.map(String).join('.')} (la casse ne compte pas)`,
    );
  } else taken.set(normalized, path);
}

/** At most one default per kind of pipeline; without any, the first of the list is the default. */
function defaultIndex(planning: Planning, pipelines: readonly { is_default: boolean }[], list: string): number {
  const marked = pipelines.flatMap((pipeline, index) => (pipeline.is_default ? [index] : []));
  for (const extra of marked.slice(1)) {
    problem(planning, [list, extra, 'is_default'], 'un seul pipeline de ce type peut être par défaut');
  }
  return marked[0] ?? 0;
}
