import { api } from './api';
import { ShownName } from './copyable-value';
import { usePages } from './pages';
import { useProspectNames, type ProspectNames } from './prospect-names';
import { hrefOf } from './routes';
import type { components } from './settings-api';
import type { Workspace } from './session';
import { Table } from './table';
import { texts } from './texts';
import { useWorkspaceNames, type WorkspaceNames } from './workspace-names';

type AuditEntry = components['schemas']['AuditPage']['entries'][number];

const actionNames: Record<AuditEntry['action'], string> = texts.audit.actions;

/** A prospect's id in an undo's summary (« Modification du champ stage du prospect <id> annulée. », lib/messages.ts). */
const prospectIdIn = (entry: AuditEntry): string | undefined =>
  entry.action === 'change.undone'
    ? /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i.exec(entry.summary)?.[0]
    : undefined;

/**
 * An entry's summary as the API words it, but for an undo's: the prospect it names by id is named by its name, a link
 * to its record (when the list call found it; else the id as sent, to copy).
 */
function summaryOf(entry: AuditEntry, prospects: ProspectNames, workspace: Workspace) {
  const id = prospectIdIn(entry);
  if (id === undefined || !prospects.found(id)) return entry.summary;
  const [before, after] = [
    entry.summary.slice(0, entry.summary.indexOf(id)),
    entry.summary.slice(entry.summary.indexOf(id) + id.length),
  ];
  return (
    <>
      {before}
      <a href={hrefOf({ workspaceId: workspace.id, screen: 'prospects', item: id })}>{prospects.name(id).text}</a>
      {after}
    </>
  );
}

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
 * command line. The prospects undos name are named too, with one list call per page read (`useProspectNames`).
 */
export function Audit({ workspace }: { workspace: Workspace }) {
  const names = useWorkspaceNames(workspace);
  const prospects = useProspectNames(workspace);
  const {
    items: entries,
    failure,
    hasMore,
    more,
  } = usePages<AuditEntry>(async (cursor) => {
    const { data, error } = await api.GET('/workspaces/{workspace_id}/audit', {
      params: { path: { workspace_id: workspace.id }, query: cursor === null ? {} : { cursor } },
    });
    if (data) await prospects.learn(data.entries.flatMap((entry) => prospectIdIn(entry) ?? []));
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
              summaryOf(entry, prospects, workspace),
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
