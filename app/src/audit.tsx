import { api } from './api';
import { usePages } from './pages';
import type { components } from './settings-api';
import type { Workspace } from './session';
import { Table } from './table';
import { texts } from './texts';
import { useWorkspaceNames } from './workspace-names';

type AuditEntry = components['schemas']['AuditPage']['entries'][number];

const actionNames: Record<AuditEntry['action'], string> = texts.audit.actions;

/**
 * « Journal d'audit » (admin): the workspace's audit log, newest first, a page at a time, each entry's action in words
 * and its member by name (`useWorkspaceNames`); no member: the admin command line.
 */
export function Audit({ workspace }: { workspace: Workspace }) {
  const names = useWorkspaceNames(workspace);
  const {
    items: entries,
    failure,
    hasMore,
    more,
  } = usePages<AuditEntry>(async (cursor) => {
    const { data, error } = await api.GET('/workspaces/{workspace_id}/audit', {
      params: { path: { workspace_id: workspace.id }, query: cursor === null ? {} : { cursor } },
    });
    return { page: data && { items: data.entries, next_cursor: data.next_cursor }, error };
  }, workspace.id);

  return (
    <section aria-labelledby="audit-heading">
      <h2 id="audit-heading">{texts.audit.heading}</h2>
      {entries === undefined && !failure && <p>{texts.loading}</p>}
      {entries?.length === 0 && <p>{texts.audit.none}</p>}
      {entries && entries.length > 0 && (
        <Table
          caption={texts.audit.heading}
          columns={[texts.audit.at, texts.audit.member, texts.audit.action, texts.audit.summary]}
          rows={entries.map((entry) => ({
            key: entry.id,
            cells: [
              texts.date(entry.at),
              entry.member_id === null ? texts.audit.commandLine : names.member(entry.member_id),
              actionNames[entry.action],
              entry.summary,
            ],
          }))}
        />
      )}
      {hasMore && (
        <button type="button" class="secondary" onClick={more}>
          {texts.audit.more}
        </button>
      )}
      {failure && <p role="alert">{failure}</p>}
    </section>
  );
}
