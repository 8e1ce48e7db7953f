import type { Deps } from '../storage/client';
import { commandLine, newAuditEntry, type ActingMemberId } from '../storage/audit-log';
import { ConflictError, InvalidInputError, NotFoundError, sameName, type Tag, isUuid } from '../domain/model';
import { messages } from '../messages';
import {
  ConfigTooLargeError,
  configOfRead,
  editWorkspaceConfig,
  partsOf,
  readConfigForEdit,
  type ConfigEdit,
  type ConfigRead,
  type EditedConfig,
  type ExistingWorkspaceConfig,
} from '../storage/config-edits';
import { AdminInputError, checkedId, unknownId } from './admin-input';

const refusals = messages.admin.config;

export type SalesPipelineView = { id: string; name: string; is_default: boolean; active: boolean; stages: [] };
export type StageView = { id: string; name: string; type: string; pipeline_id: string };
export type ColumnView = { id: string; name: string; pipeline_id: string };

/**
 * Each command is one optimistic edit of the configuration item (lib/storage/config-edits.ts): the
 * checks below run on the configuration read, again after a lost race, so a name another admin
 * took meanwhile is refused and nothing is written. New ids are drawn once, before the first round.
 */
export async function editConfig(
  deps: Deps,
  workspaceId: string,
  change: ConfigEdit,
  firstRead?: ConfigRead,
): Promise<EditedConfig> {
  try {
    const edited = await editWorkspaceConfig(deps, workspaceId, change, undefined, firstRead);
    if (edited === 'workspace_missing') throw unknownId('workspace', workspaceId);
    return edited;
  } catch (error) {
    if (error instanceof ConfigTooLargeError) throw new AdminInputError(error.message, { cause: error });
    throw error;
  }
}

/**
 * An edit that acts outside the table between its read and its write (an invitation: lib/settings/members.ts).
 * `prepare` gets the configuration read: it refuses by throwing (nothing done, nothing written), or acts, once,
 * and returns what it did (`acted`, returned with the edited configuration) and the edit, applied then to that
 * same read, and to fresh ones after a lost race, as any edit is. The same two calls to DynamoDB as `editConfig`.
 */
export async function editConfigAfter<Acted>(
  deps: Deps,
  workspaceId: string,
  prepare: (config: ExistingWorkspaceConfig) => Promise<{ acted: Acted; edit: ConfigEdit }>,
): Promise<EditedConfig & { acted: Acted }> {
  const read = await readConfigForEdit(deps, workspaceId);
  const config = configOfRead(read);
  if (config === undefined) throw unknownId('workspace', workspaceId);
  const { acted, edit } = await prepare(config);
  return { ...(await editConfig(deps, workspaceId, edit, read)), acted };
}

/** A name as stored: trimmed, never blank (the comparison of names is `sameName`'s). */
function nameOf(value: string): string {
  const name = value.trim();
  if (name === '') throw new InvalidInputError(refusals.blankName, { field: 'name', message: refusals.blankName });
  return name;
}

/** The tag of that id in the workspace; a malformed id names none (404, as any unknown id in a path). */
function findTag(tags: readonly Tag[], tagId: string): Tag {
  const id = isUuid(tagId) ? tagId.toLowerCase() : undefined;
  const tag = tags.find((candidate) => candidate.id === id);
  if (!tag) throw new NotFoundError(refusals.unknownTag(tagId));
  return tag;
}

/** Two tags never share a name (names compared as docs/api.md#names-as-references says): 409. */
function refuseTakenTagName(tags: readonly Tag[], name: string, except?: string): void {
  if (tags.some((other) => other.id !== except && sameName(other.name, name))) {
    throw new ConflictError(refusals.tagNameTaken(name));
  }
}

/** `tag add`, `POST /tags`: a new tag, last of the list, and its audit entry in the same transaction. */
export async function addTag(
  deps: Deps,
  input: { workspaceId: string; name: string; actingMemberId?: ActingMemberId },
): Promise<Tag> {
  const workspaceId = checkedId('workspace', input.workspaceId);
  const tag = { id: deps.newId(), name: nameOf(input.name) };
  const entry = newAuditEntry(deps.clock(), {
    workspaceId,
    memberId: input.actingMemberId ?? commandLine,
    action: 'tag.created',
    targetId: tag.id,
    summary: messages.audit.tagCreated(tag.name),
  });
  await editConfig(deps, workspaceId, (config) => {
    refuseTakenTagName(config.tags, tag.name);
    return { parts: { ...partsOf(config), tags: [...config.tags, tag] }, companions: [{ kind: 'audit', entry }] };
  });
  return tag;
}

/**
 * `PATCH /tags/{t}`: the tag renamed, everywhere it is shown (records name tags by id); a name another
 * tag has: 409. The same name again changes nothing and writes nothing.
 */
export async function renameTag(
  deps: Deps,
  input: { workspaceId: string; tagId: string; name: string; actingMemberId: ActingMemberId },
): Promise<Tag> {
  const workspaceId = checkedId('workspace', input.workspaceId);
  const name = nameOf(input.name);
  let renamed: Tag | undefined;
  await editConfig(deps, workspaceId, (config) => {
    const tag = findTag(config.tags, input.tagId);
    renamed = { id: tag.id, name };
    if (tag.name === name) return 'unchanged';
    refuseTakenTagName(config.tags, name, tag.id);
    const entry = newAuditEntry(deps.clock(), {
      workspaceId,
      memberId: input.actingMemberId,
      action: 'tag.renamed',
      targetId: tag.id,
      summary: messages.audit.tagRenamed(tag.name, name),
    });
    return {
      parts: { ...partsOf(config), tags: config.tags.map((other) => (other === tag ? { ...tag, name } : other)) },
      companions: [{ kind: 'audit', entry }],
    };
  });
  return renamed as Tag;
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
  await editConfig(deps, workspaceId, (config) => {
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
  await editConfig(deps, workspaceId, (config) => {
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
  await editConfig(deps, workspaceId, (config) => {
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
