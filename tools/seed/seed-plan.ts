import type { Deps } from '../../lib/storage/client';
import {
  nameKey,
  type Member,
  type Prospect,
  type RecruitmentPipeline,
  type SalesPipeline,
  type Stamped,
  type Tag,
} from '../../lib/domain/model';
import { readIsoTimestamp } from '../../lib/domain/timestamps';
import { messages as catalogue } from '../../lib/messages';
import { allScopes } from '../../lib/routes';
import { credentialItems } from '../../lib/storage/credentials';
import { membershipItem, type MembershipItem } from '../../lib/storage/memberships';
import { emailKey, items } from '../../lib/storage/table-items';
import {
  configItemMaxBytes,
  configItems,
  estimatedItemBytes,
  type ConfigParts,
} from '../../lib/storage/workspace-config';
import { contactMarkers, type SeedItem } from './workspace-seed';
import { newApiKey } from '../../lib/settings/api-keys';
import { invalidSeed, type ParsedSeedDescription, type SeedProblem } from './seed-description';
import { newEndpoint } from '../../lib/settings/webhooks';

/** Every id and secret of the new workspace, by the file's labels (docs/api.md#seed-output). */
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

export type { SeedItem } from './workspace-seed';
export type SeedPlan = { items: SeedItem[]; output: SeedOutput };

type Path = readonly PropertyKey[];
const messages = catalogue.admin.seed;
/** A path as the problems name it: `prospects.0`. */
const pathName = (path: Path): string => path.map(String).join('.');
type Seed = ParsedSeedDescription;
/** What every planning step adds to: the items to write, the output to print, the problems found. */
type Planning = {
  deps: Pick<Deps, 'newId'>;
  workspaceId: string;
  now: string;
  items: SeedItem[];
  /** What the workspace's configuration item embeds, written last with it. */
  config: {
    members: Member[];
    tags: Tag[];
    salesPipelines: SalesPipeline[];
    recruitmentPipelines: RecruitmentPipeline[];
    /** A seed defines no custom field: the settings API and the page do. */
    fields: [];
  };
  output: SeedOutput;
  /** The people's memberships, written just before the configuration item. */
  memberships: MembershipItem[];
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
 * The workspace item, which embeds the whole configuration (members, tags, pipelines), comes
 * last: seed.ts writes in that order, so a seed interrupted half-way leaves no workspace that the
 * other commands would accept.
 */
export function planSeed(deps: Pick<Deps, 'clock' | 'newId'>, seed: Seed): SeedPlan {
  const workspaceId = deps.newId();
  const planning: Planning = {
    deps,
    workspaceId,
    now: deps.clock().toISOString(),
    items: [],
    config: { members: [], tags: [], salesPipelines: [], recruitmentPipelines: [], fields: [] },
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
    memberships: [],
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

  const configItem = configItems.workspace(
    {
      id: workspaceId,
      name: seed.workspace.name,
      created_at: planning.now,
      ...(endpointId ? { endpoint_id: endpointId } : {}),
    },
    planning.config satisfies ConfigParts,
  );
  const configBytes = estimatedItemBytes(configItem);
  if (configBytes > configItemMaxBytes) problem(planning, [], messages.configTooLarge(configBytes, configItemMaxBytes));
  planning.items.push(...planning.memberships, configItem);

  if (planning.problems.length > 0) throw invalidSeed(planning.problems);
  return { items: planning.items, output: planning.output };
}

/**
 * Members with their roles; each one with an e-mail also gets the person's membership item
 * (docs/adr/0013-member-sign-in.md), planned here and written just before the workspace item, last. One person, one
 * e-mail ignoring case, is one member of a workspace at most: a second is a problem.
 */
function planMembers(planning: Planning, members: Seed['members']): Map<string, string> {
  const ids = new Map<string, string>();
  const emails = new Map<string, Path>();
  members.forEach((member, index) => {
    const id = planning.deps.newId();
    const path = ['members', index];
    planning.output.members[claimLabel(planning, ids, member.key ?? member.name, id, path)] = id;
    const email = member.email ?? null;
    planning.config.members.push({ id, name: member.name, email, role: member.role });
    if (email === null) return;
    const owner = emails.get(emailKey(email));
    if (owner) problem(planning, [...path, 'email'], messages.contactTaken(pathName(owner)));
    else emails.set(emailKey(email), path);
    planning.memberships.push(
      membershipItem(email, { workspace_id: planning.workspaceId, member_id: id, role: member.role }),
    );
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
    planning.config.tags.push({ id, name: tag.name });
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
    planning.config.salesPipelines.push({
      id,
      name: pipeline.name,
      is_default: index === defaultAt,
      active: pipeline.active,
      position: index,
      stages,
    });
  });
  return { salesPipelines: planned, defaultPipeline };
}

/** Recruitment pipelines may share a name (an ambiguous name is a 409: docs/api.md#recruitment-webhook-errors). */
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
    planning.config.recruitmentPipelines.push({
      id,
      name: pipeline.name,
      is_default: index === defaultAt,
      active: pipeline.active,
      position: index,
      columns,
    });
  });
}

function planApiKeys(planning: Planning, apiKeys: Seed['api_keys']): void {
  const labels = new Map<string, string>();
  apiKeys.forEach((apiKey, index) => {
    const { key, secret } = newApiKey(planning.deps, {
      workspaceId: planning.workspaceId,
      name: apiKey.name,
      scopes: apiKey.scopes ?? [...allScopes],
      createdAt: planning.now,
    });
    const label = claimLabel(planning, labels, apiKey.key ?? apiKey.name, key.id, ['api_keys', index]);
    planning.output.api_keys[label] = { id: key.id, secret };
    planning.items.push(credentialItems.apiKey(key));
  });
}

function planWebhook(planning: Planning, webhook: NonNullable<Seed['webhook']>): string {
  const { endpoint, token } = newEndpoint(planning.deps, {
    workspaceId: planning.workspaceId,
    active: webhook.active,
    createdAt: planning.now,
  });
  planning.output.webhook = { endpoint_id: endpoint.id, token };
  planning.items.push(credentialItems.endpoint(endpoint));
  return endpoint.id;
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
    else problem(planning, path, messages.unlabelledProspect);

    const place = placement(planning, references, prospect, path);
    const memberId = (field: 'setter' | 'closer'): string | null => {
      const reference = prospect[field];
      if (reference === undefined) return null;
      const found = references.memberIds.get(reference);
      if (!found) problem(planning, [...path, field], messages.unknownMember(reference));
      return found ?? null;
    };
    const setterId = memberId('setter');
    const closerId = memberId('closer');
    const followUp = prospect.next_follow_up_at
      ? readIsoTimestamp(prospect.next_follow_up_at, { zone: 'required', dateOnly: false })
      : null;
    if (followUp === undefined) {
      problem(planning, [...path, 'next_follow_up_at'], messages.invalidFollowUp);
    }
    const tagIds = new Set<string>();
    prospect.tags.forEach((reference, tagIndex) => {
      const found = references.tagIds.get(reference);
      if (found) tagIds.add(found);
      else problem(planning, [...path, 'tags', tagIndex], messages.unknownTag(reference));
    });
    const record: Stamped<Prospect> = {
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
      actor: { kind: 'admin', id: null },
    };
    planContactMarkers(planning, contactOwners, record, path);
    planning.items.push(items.prospect(record));
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
    problem(planning, [...path, 'pipeline'], messages.unknownPipeline(prospect.pipeline));
    return nowhere;
  }
  if (!pipeline) {
    if (prospect.stage !== undefined) {
      problem(planning, [...path, 'stage'], messages.stageWithoutPipeline);
    }
    return nowhere;
  }
  const stageId = prospect.stage === undefined ? pipeline.firstStageId : pipeline.stageIds.get(prospect.stage);
  if (!stageId) {
    problem(planning, [...path, 'stage'], messages.unknownStage(String(prospect.stage)));
    return nowhere;
  }
  return { pipeline_id: pipeline.id, stage_id: stageId };
}

/** A seeded prospect owns its e-mail, phone and social URL like one the lead webhook created. */
function planContactMarkers(planning: Planning, owners: Map<string, Path>, prospect: Prospect, path: Path): void {
  for (const { field, item } of contactMarkers(prospect)) {
    const owner = owners.get(item.pk);
    if (owner) {
      problem(planning, [...path, field], messages.contactTaken(pathName(owner)));
      continue;
    }
    owners.set(item.pk, path);
    planning.items.push(item);
  }
}

function problem(planning: Planning, path: Path, message: string): void {
  planning.problems.push({ path, message });
}

function claimLabel<T>(planning: Planning, taken: Map<string, T>, label: string, value: T, path: Path): string {
  if (taken.has(label)) problem(planning, [...path, 'key'], messages.labelTaken(label));
  else taken.set(label, value);
  return label;
}

/**
 * Two names equal ignoring case are refused: sales pipelines, stages of one pipeline, tags
 * (docs/api.md#names-as-references).
 */
function claimName(planning: Planning, taken: Map<string, Path>, name: string, path: Path): void {
  const normalized = nameKey(name);
  const owner = taken.get(normalized);
  if (owner) {
    problem(planning, [...path, 'name'], messages.nameTaken(name, pathName(owner)));
  } else taken.set(normalized, path);
}

/** At most one default per kind of pipeline; without any, the first of the list is the default. */
function defaultIndex(planning: Planning, pipelines: readonly { is_default: boolean }[], list: string): number {
  const marked = pipelines.flatMap((pipeline, index) => (pipeline.is_default ? [index] : []));
  for (const extra of marked.slice(1)) {
    problem(planning, [list, extra, 'is_default'], messages.secondDefault);
  }
  return marked[0] ?? 0;
}
