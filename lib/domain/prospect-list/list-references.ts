import { findByIdOrName, sameName, UnknownReferenceError, type WorkspaceConfig } from '../model';
import { messages } from '../../messages';

/*
 * The references a list names, resolved against the workspace's configuration (docs/api.md#lists-of-prospects):
 * what the workspace does not have is a 422 naming the parameter, once every 400 has been ruled out.
 */

const unknown = (field: string, message: string) => new UnknownReferenceError(message, { field, message });

const distinct = (values: string[]): string[] => [...new Set(values)];

/** `pipeline`: sales pipelines by id or name (docs/api.md#names-as-references), inactive ones too. */
export function pipelineIdsOf(config: WorkspaceConfig, references: readonly string[]): string[] {
  return distinct(
    references.map((reference) => {
      const pipeline = findByIdOrName(config.salesPipelines, reference);
      if (!pipeline) throw unknown('pipeline', messages.lists.unknownPipeline(reference));
      return pipeline.id;
    }),
  );
}

/**
 * `stage`: a stage id of any sales pipeline, or a stage name within the one pipeline `pipeline` names, or, unless
 * exactly one is named, within the default pipeline: a name alone means the stage of the board shown first.
 */
export function stageIdsOf(
  config: WorkspaceConfig,
  references: readonly string[],
  pipelineIds: readonly string[] | undefined,
): string[] {
  const stages = config.salesPipelines.flatMap((pipeline) => pipeline.stages);
  const namesIn = config.salesPipelines.find((pipeline) =>
    pipelineIds?.length === 1 ? pipeline.id === pipelineIds[0] : pipeline.is_default,
  );
  return distinct(
    references.map((reference) => {
      const id = reference.trim().toLowerCase();
      const stage =
        stages.find((candidate) => candidate.id === id) ??
        namesIn?.stages.find((candidate) => sameName(candidate.name, reference));
      if (!stage) throw unknown('stage', messages.lists.unknownStage(reference));
      return stage.id;
    }),
  );
}

/** `setter_id`, `closer_id`, `member_id`: members of the workspace, removed ones too (their ids stay valid). */
export function checkMembers(config: WorkspaceConfig, parameter: string, memberIds: readonly string[]): void {
  if (memberIds.some((id) => !config.members.some((member) => member.id === id)))
    throw unknown(parameter, messages.lists.unknownMember(parameter));
}

/** `tag`: tags by id or name. */
export function tagIdsOf(config: WorkspaceConfig, references: readonly string[]): string[] {
  return distinct(
    references.map((reference) => {
      const tag = findByIdOrName(config.tags, reference);
      if (!tag) throw unknown('tag', messages.lists.unknownTag(reference));
      return tag.id;
    }),
  );
}

/** `fields.<key>` of a key the workspace has no live field for (a deleted field's included). */
export const unknownFieldKey = (parameter: string, key: string) =>
  unknown(parameter, messages.fields.unknownField(key));
