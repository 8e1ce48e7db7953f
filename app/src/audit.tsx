import { api } from './api';
import { ShownName } from './copyable-value';
import { usePages } from './pages';
import { hrefOf } from './routes';
import type { components } from './settings-api';
import type { Workspace } from './session';
import { Table } from './table';
import { texts } from './texts';
import { useWorkspaceNames, type WorkspaceNames } from './workspace-names';

type AuditEntry = components['schemas']['AuditPage']['entries'][number];

const actionNames: Record<AuditEntry['action'], string> = texts.audit.actions;

/**
 * What an entry acted on, by name when the page has one (a key, a member, a tag, a custom field by its label), a link
 * for a replayed call (its own page); the rest (the webhook, a subscription, a delivery, an undone change, the
 * workspace's settings) its summary names.
 */
function targetOf(entry: AuditEntry, names: WorkspaceNames, workspace: Workspace) {
  const target = entry.target_id;
  if (target === null) return texts.changes.empty;
  const [kind] = entry.action.split('.');
  if (kind === 'api_key') return <ShownName named={names.apiKey(target)} />;
  if (kind === 'member') return <ShownName named={names.member(target)} />;
  if (kind === 'tag') return <ShownName named={names.tag(target)} />;
  if (kind === 'field') return <ShownName named={names.field(target)} />;
  if (entry.action === 'webhook_call.replayed')
    return (
      <a
        href={hrefOf({ workspaceId: workspace.id, screen: 'appels', item: target })}
        aria-label={texts.audit.openCall(texts.date(entry.at))}
      >
        {texts.audit.call}
      </a>
    );
  return texts.changes.empty;
}

/**
 * « Journal d'audit » (admin): the workspace's audit log, newest first, a page at a time, each entry's action in words,
 * its member and what it acted on by name (`useWorkspaceNames`, read once for every page); no member: the admin
 * command line.
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
      {(entries === undefined || !names.ready) && !failure && <p>{texts.loading}</p>}
      {entries?.length === 0 && <p>{texts.audit.none}</p>}
      {names.ready && entries && entries.length > 0 && (
        <Table
          caption={texts.audit.heading}
          columns={[texts.audit.at, texts.audit.member, texts.audit.action, texts.audit.target, texts.audit.summary]}
          rows={entries.map((entry) => ({
            key: entry.id,
            cells: [
              texts.date(entry.at),
              entry.member_id === null ? texts.audit.commandLine : <ShownName named={names.member(entry.member_id)} />,
              actionNames[entry.action],
              targetOf(entry, names, workspace),
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
