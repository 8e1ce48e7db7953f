import { useEffect, useState } from 'preact/hooks';
import { api } from './api';
import { customFieldKey, fieldValueText, type FieldDefinition, type FieldValue } from './field-values';
import type { components } from './settings-api';
import type { Workspace } from './session';
import { texts } from './texts';

/**
 * What the page shows for an id: the name it stands for, or, for an id the workspace no longer names (a tag since
 * deleted, a stage of an inactive pipeline), a fallback in words with the id itself to copy (`missingId`).
 */
export type Named = { text: string; missingId?: string; copyLabel?: string };

/**
 * The names of the ids a prospect, its change log, the audit log and the webhook's calls carry: the stage's (« Ventes ›
 * Relance »), the member's (with the e-mail: two members may share a name), the tag's, the API key's, a custom field's
 * (its label, by its key); a follow-up as a date. `ready` is false until they are read: a screen waits for them rather
 * than showing ids that turn into names.
 */
export type WorkspaceNames = {
  ready: boolean;
  stage: (id: string | null) => Named;
  member: (id: string | null) => Named;
  tag: (id: string | null) => Named;
  apiKey: (id: string | null) => Named;
  /** A custom field by its key: its label. */
  field: (key: string | null) => Named;
  /** The workspace's custom fields, in the order they were created (none until read, or if the API refused them). */
  fields: readonly FieldDefinition[];
  /** The active sales pipelines with their stages, in their order (none until read, or if the API refused them). */
  pipelines: readonly Pipeline[];
  /** The workspace's members, as `GET …/members` lists them (none until read, or if refused). */
  members: readonly Member[];
  /** The workspace's tags (none until read, or if refused). */
  tags: readonly Tag[];
  /** A change entry's field (`stage`…, `fields.<key>` a custom field) as the page names it. */
  changedField: (field: string) => Named;
  /** An entry's value (`before` or `after`) as its field names it. */
  value: (field: string, value: FieldValue) => Named;
};

type Pipeline = components['schemas']['PipelineListing']['pipelines'][number];
type Member = components['schemas']['Member'];
type Tag = components['schemas']['Tag'];

type Lists = {
  pipelines?: components['schemas']['PipelineListing'] | undefined;
  members?: components['schemas']['MemberList'] | undefined;
  apiKeys?: components['schemas']['ApiKeyList'] | undefined;
  fields?: components['schemas']['FieldList'] | undefined;
};

/**
 * The names of one kind: an id it lists is named; one it does not is its `missing` fallback, with the id to copy; while
 * the list could not be read (the API refused it: the screen shows its own refusals), the id as it is.
 */
const namer =
  (names: ReadonlyMap<string, string> | undefined, missing: { text: string; copyLabel: string }) =>
  (id: string | null): Named => {
    if (id === null) return { text: texts.changes.empty };
    const name = names?.get(id);
    if (name !== undefined) return { text: name };
    return names === undefined ? { text: id } : { ...missing, missingId: id };
  };

function namesFrom(lists: Lists | undefined): WorkspaceNames {
  const pipelines = lists?.pipelines?.pipelines;
  const stages =
    pipelines &&
    new Map(
      pipelines.flatMap((pipeline) =>
        pipeline.stages.map((stage) => [stage.id, texts.prospect.stageIn(pipeline.name, stage.name)] as const),
      ),
    );
  const tags = lists?.pipelines && new Map(lists.pipelines.tags.map((tag) => [tag.id, tag.name] as const));
  const people =
    lists?.members &&
    new Map(lists.members.members.map((member) => [member.id, texts.members.who(member.name, member.email)] as const));
  const keys = lists?.apiKeys && new Map(lists.apiKeys.api_keys.map((key) => [key.id, key.name] as const));
  const fields = lists?.fields?.fields ?? [];
  const definitions = lists?.fields && new Map(fields.map((field) => [field.key, field] as const));
  const labels = definitions && new Map(fields.map((field) => [field.key, field.label] as const));
  const names: WorkspaceNames = {
    ready: lists !== undefined,
    stage: namer(stages, texts.names.missingStage),
    member: namer(people, texts.names.missingMember),
    tag: namer(tags, texts.names.missingTag),
    apiKey: namer(keys, texts.names.missingKey),
    field: namer(labels, texts.names.missingField),
    fields,
    pipelines: pipelines ?? [],
    members: lists?.members?.members ?? [],
    tags: lists?.pipelines?.tags ?? [],
    changedField: (field) => {
      const key = customFieldKey(field);
      return key === undefined ? { text: texts.wordsFor(texts.changes.field, field) } : names.field(key);
    },
    value: (field, value) => {
      const key = customFieldKey(field);
      if (key !== undefined) return { text: fieldValueText(value, definitions?.get(key)?.type) };
      // The prospect's own fields carry an id, a date and time, or none (null).
      if (typeof value !== 'string') return { text: fieldValueText(value) };
      if (field === 'stage') return names.stage(value);
      if (field === 'setter' || field === 'closer') return names.member(value);
      if (field === 'tags') return names.tag(value);
      if (field === 'follow_up') return { text: texts.date(value) };
      return { text: texts.changes.noteAdded };
    },
  };
  return names;
}

/**
 * The workspace's names, read once for the screen that shows them, however many rows name them: `GET …/pipelines`
 * (the stages, and the tags), `GET …/members`, `GET …/api-keys` and `GET …/fields`, all four open to a member.
 */
export function useWorkspaceNames(workspace: Workspace): WorkspaceNames {
  const [names, setNames] = useState(() => namesFrom(undefined));
  useEffect(() => {
    const path = { workspace_id: workspace.id };
    void Promise.all([
      api.GET('/workspaces/{workspace_id}/pipelines', { params: { path } }),
      api.GET('/workspaces/{workspace_id}/members', { params: { path } }),
      api.GET('/workspaces/{workspace_id}/api-keys', { params: { path } }),
      api.GET('/workspaces/{workspace_id}/fields', { params: { path } }),
    ]).then(([pipelines, members, apiKeys, fields]) =>
      setNames(
        namesFrom({ pipelines: pipelines.data, members: members.data, apiKeys: apiKeys.data, fields: fields.data }),
      ),
    );
  }, [workspace.id]);
  return names;
}
