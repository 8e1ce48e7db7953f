import { api } from './api';
import { usePages } from './pages';
import type { components } from './settings-api';
import type { Workspace } from './session';
import { texts } from './texts';

type AuditEntry = components['schemas']['AuditPage']['entries'][number];

/** « Journal d'audit » (admin): the workspace's audit log, newest first, a page at a time. */
export function Audit({ workspace }: { workspace: Workspace }) {
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
        <ul class="cards">
          {entries.map((entry) => (
            <li key={entry.id}>
              <dl>
                <dt>{texts.audit.at}</dt>
                <dd>{texts.date(entry.at)}</dd>
                <dt>{texts.audit.member}</dt>
                <dd>{entry.member_id ?? texts.audit.commandLine}</dd>
                <dt>{texts.audit.action}</dt>
                <dd>{entry.action}</dd>
                <dt>{texts.audit.summary}</dt>
                <dd>{entry.summary}</dd>
              </dl>
            </li>
          ))}
        </ul>
      )}
      {hasMore && (
        <button type="button" onClick={more}>
          {texts.audit.more}
        </button>
      )}
      {failure && <p role="alert">{failure}</p>}
    </section>
  );
}
