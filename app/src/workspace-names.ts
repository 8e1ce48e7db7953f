import { useEffect, useState } from 'preact/hooks';
import { api } from './api';
import type { components } from './settings-api';
import type { Workspace } from './session';
import { texts } from './texts';

type Change = components['schemas']['ChangeList']['changes'][number];

/**
 * What the page shows for the ids a prospect, its change log and the audit log carry: the stage's name (« Ventes ›
 * Relance »), the member's (with the e-mail: two members may share a name), the tag's, a follow-up as a date. An id the workspace no longer names (an inactive pipeline, a tag since
 * gone) is shown as the id.
 */
export type WorkspaceNames = {
  stage: (id: string | null) => string;
  member: (id: string | null) => string;
  /** An entry's value (`before` or `after`) as its field names it. */
  value: (field: Change['field'], value: string | null) => string;
};

const orId = (names: ReadonlyMap<string, string>, id: string | null) =>
  id === null ? texts.changes.empty : (names.get(id) ?? id);

function namesFrom(
  listing: components['schemas']['PipelineListing'] | undefined,
  members: components['schemas']['MemberList'] | undefined,
): WorkspaceNames {
  const stages = new Map(
    (listing?.pipelines ?? []).flatMap((pipeline) =>
      pipeline.stages.map((stage) => [stage.id, texts.prospect.stageIn(pipeline.name, stage.name)] as const),
    ),
  );
  const tags = new Map((listing?.tags ?? []).map((tag) => [tag.id, tag.name] as const));
  const people = new Map(
    (members?.members ?? []).map((member) => [member.id, texts.members.who(member.name, member.email)] as const),
  );
  const names: WorkspaceNames = {
    stage: (id) => orId(stages, id),
    member: (id) => orId(people, id),
    value: (field, value) => {
      if (value === null) return texts.changes.empty;
      if (field === 'stage') return names.stage(value);
      if (field === 'setter' || field === 'closer') return names.member(value);
      if (field === 'tags') return orId(tags, value);
      if (field === 'follow_up') return texts.date(value);
      return value;
    },
  };
  return names;
}

/**
 * The workspace's names, read once for the screen that shows them (`GET …/pipelines` and `GET …/members`, both open
 * to a member): ids until they arrive, or if the API refuses (the screen shows its own refusals).
 */
export function useWorkspaceNames(workspace: Workspace): WorkspaceNames {
  const [names, setNames] = useState(() => namesFrom(undefined, undefined));
  useEffect(() => {
    const path = { workspace_id: workspace.id };
    void Promise.all([
      api.GET('/workspaces/{workspace_id}/pipelines', { params: { path } }),
      api.GET('/workspaces/{workspace_id}/members', { params: { path } }),
    ]).then(([pipelines, members]) => setNames(namesFrom(pipelines.data, members.data)));
  }, [workspace.id]);
  return names;
}
