import type { Deps } from '../deps';
import { isEmailAddress } from '../domain/email';
import { sameName } from '../domain/model';
import { messages } from '../messages';
import {
  ConfigTooLargeError,
  editWorkspaceConfig,
  partsOf,
  type ConfigEdit,
  type EditedConfig,
} from '../storage/config-edits';
import { AdminInputError } from './errors';
import { checkedId, unknownId } from './ids';

const refusals = messages.admin.config;

export type TagView = { id: string; name: string };
export type MemberView = { id: string; name: string; email: string | null };
export type SalesPipelineView = { id: string; name: string; is_default: boolean; active: boolean; stages: [] };
export type StageView = { id: string; name: string; type: string; pipeline_id: string };
export type ColumnView = { id: string; name: string; pipeline_id: string };

/**
 * Each command is one optimistic edit of the configuration item (lib/storage/config-edits.ts): the
 * checks below run on the configuration read, again after a lost race, so a name another admin
 * took meanwhile is refused and nothing is written. New ids are drawn once, before the first round.
 */
async function edit(deps: Deps, workspaceId: string, change: ConfigEdit): Promise<EditedConfig> {
  try {
    const edited = await editWorkspaceConfig(deps, workspaceId, change);
    if (edited === 'workspace_missing') throw unknownId('workspace', workspaceId);
    return edited;
  } catch (error) {
    if (error instanceof ConfigTooLargeError) throw new AdminInputError(error.message, { cause: error });
    throw error;
  }
}

/** A name as stored: trimmed, never blank (the comparison of names is `sameName`'s). */
function nameOf(value: string): string {
  const name = value.trim();
  if (name === '') throw new AdminInputError(refusals.blankName);
  return name;
}

/** Tags whose names are equal ignoring case are refused (docs/api.md#names-as-references). */
export async function addTag(deps: Deps, input: { workspaceId: string; name: string }): Promise<TagView> {
  const workspaceId = checkedId('workspace', input.workspaceId);
  const tag = { id: deps.newId(), name: nameOf(input.name) };
  await edit(deps, workspaceId, (config) => {
    if (config.tags.some((other) => sameName(other.name, tag.name))) {
      throw new AdminInputError(refusals.tagNameTaken(tag.name));
    }
    return { ...partsOf(config), tags: [...config.tags, tag] };
  });
  return tag;
}

/** Members may share a name; the e-mail, optional, follows the webhooks' rule. */
export async function addMember(
  deps: Deps,
  input: { workspaceId: string; name: string; email?: string | undefined },
): Promise<MemberView> {
  const workspaceId = checkedId('workspace', input.workspaceId);
  const email = input.email?.trim() || null;
  if (email !== null && !isEmailAddress(email)) throw new AdminInputError(refusals.invalidEmail(email));
  const member = { id: deps.newId(), name: nameOf(input.name), email };
  await edit(deps, workspaceId, (config) => ({ ...partsOf(config), members: [...config.members, member] }));
  return member;
}

/**
 * A new active sales pipeline, last of the board, without stages yet (`stage add` adds them). With
 * `isDefault`, it becomes the default and the others lose the flag in the same write; a workspace
 * without default pipeline gets this one as its default, as the seed makes the first one.
 */
export async function addSalesPipeline(
  deps: Deps,
  input: { workspaceId: string; name: string; isDefault?: boolean },
): Promise<SalesPipelineView> {
  const workspaceId = checkedId('workspace', input.workspaceId);
  const id = deps.newId();
  const name = nameOf(input.name);
  let isDefault = false;
  await edit(deps, workspaceId, (config) => {
    if (config.salesPipelines.some((other) => sameName(other.name, name))) {
      throw new AdminInputError(refusals.pipelineNameTaken(name));
    }
    isDefault = input.isDefault === true || !config.salesPipelines.some((other) => other.is_default);
    const position = Math.max(-1, ...config.salesPipelines.map((other) => other.position)) + 1;
    const others = config.salesPipelines.map((other) =>
      isDefault && other.is_default ? { ...other, is_default: false } : other,
    );
    return {
      ...partsOf(config),
      salesPipelines: [...others, { id, name, is_default: isDefault, active: true, position, stages: [] }],
    };
  });
  return { id, name, is_default: isDefault, active: true, stages: [] };
}

/** A stage appended last to a sales pipeline; two stages of one pipeline never share a name. */
export async function addStage(
  deps: Deps,
  input: { workspaceId: string; pipelineId: string; name: string; type: string },
): Promise<StageView> {
  const workspaceId = checkedId('workspace', input.workspaceId);
  const pipelineId = checkedId('salesPipeline', input.pipelineId);
  const name = nameOf(input.name);
  const type = input.type.trim();
  if (type === '') throw new AdminInputError(refusals.blankStageType);
  const id = deps.newId();
  await edit(deps, workspaceId, (config) => {
    const pipeline = config.salesPipelines.find((candidate) => candidate.id === pipelineId);
    if (!pipeline) throw unknownId('salesPipeline', pipelineId);
    if (pipeline.stages.some((other) => sameName(other.name, name))) {
      throw new AdminInputError(refusals.stageNameTaken(name, pipeline.name));
    }
    const order = Math.max(-1, ...pipeline.stages.map((other) => other.order)) + 1;
    const stages = [...pipeline.stages, { id, name, type, order }];
    return {
      ...partsOf(config),
      salesPipelines: config.salesPipelines.map((other) => (other === pipeline ? { ...pipeline, stages } : other)),
    };
  });
  return { id, name, type, pipeline_id: pipelineId };
}

/** A column appended last to a recruitment pipeline (columns, like recruitment pipelines, may share a name). */
export async function addColumn(
  deps: Deps,
  input: { workspaceId: string; pipelineId: string; name: string },
): Promise<ColumnView> {
  const workspaceId = checkedId('workspace', input.workspaceId);
  const pipelineId = checkedId('recruitmentPipeline', input.pipelineId);
  const name = nameOf(input.name);
  const id = deps.newId();
  await edit(deps, workspaceId, (config) => {
    const pipeline = config.recruitmentPipelines.find((candidate) => candidate.id === pipelineId);
    if (!pipeline) throw unknownId('recruitmentPipeline', pipelineId);
    const order = Math.max(-1, ...pipeline.columns.map((other) => other.order)) + 1;
    const columns = [...pipeline.columns, { id, name, order }];
    return {
      ...partsOf(config),
      recruitmentPipelines: config.recruitmentPipelines.map((other) =>
        other === pipeline ? { ...pipeline, columns } : other,
      ),
    };
  });
  return { id, name, pipeline_id: pipelineId };
}
