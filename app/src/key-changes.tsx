import { api } from './api';
import { ChangeEntries } from './change-entries';
import type { components } from './settings-api';
import type { Workspace } from './session';
import { texts } from './texts';
import type { WorkspaceNames } from './workspace-names';

type ApiKey = components['schemas']['ApiKeyList']['api_keys'][number];

/**
 * The changes a key made, read each time its page is shown (the API lists them from an index a moment behind), each
 * with its undo.
 */
export function KeyChanges(props: { workspace: Workspace; apiKey: ApiKey; names: WorkspaceNames }) {
  const { workspace, apiKey } = props;
  const readPage = (cursor: string | null) =>
    api.GET('/workspaces/{workspace_id}/api-keys/{key_id}/changes', {
      params: { path: { workspace_id: workspace.id, key_id: apiKey.id }, query: cursor === null ? {} : { cursor } },
    });
  return (
    <ChangeEntries
      key={apiKey.id}
      workspace={workspace}
      names={props.names}
      readPage={readPage}
      none={texts.changes.none}
      caption={texts.apiKeys.showChanges(apiKey.name)}
    />
  );
}
