import { useState } from 'preact/hooks';
import { api } from './api';
import { usePages } from './pages';
import type { components } from './settings-api';
import type { Workspace } from './session';
import { texts } from './texts';

type AuditEntry = components['schemas']['AuditPage']['entries'][number];
type Member = components['schemas']['Member'];

const actionNames: Record<AuditEntry['action'], string> = texts.audit.actions;

/**
 * Who made an entry: the member by name and e-mail; an id the members' list lacks as the id (the API lists removed
 * members too, so this is a member it no longer knows at all); no member, the admin command line.
 */
const actorOf = (entry: AuditEntry, members: ReadonlyMap<string, Member>): string => {
  if (entry.member_id === null) return texts.audit.commandLine;
  const member = members.get(entry.member_id);
  return member ? texts.members.who(member.name, member.email) : entry.member_id;
};

/**
 * « Journal d'audit » (admin): the workspace's audit log, newest first, a page at a time, each entry's action in words
 * and its member by name. The members are read once, with the first page, so the list is shown with their names.
 */
export function Audit({ workspace }: { workspace: Workspace }) {
  const [members, setMembers] = useState<ReadonlyMap<string, Member>>(new Map());
  const path = { workspace_id: workspace.id };
  const {
    items: entries,
    failure,
    hasMore,
    more,
  } = usePages<AuditEntry>(async (cursor) => {
    const [audit, listed] = await Promise.all([
      api.GET('/workspaces/{workspace_id}/audit', { params: { path, query: cursor === null ? {} : { cursor } } }),
      cursor === null ? api.GET('/workspaces/{workspace_id}/members', { params: { path } }) : undefined,
    ]);
    if (listed && !listed.data) return { error: listed.error };
    if (listed?.data) setMembers(new Map(listed.data.members.map((member) => [member.id, member])));
    return {
      page: audit.data && { items: audit.data.entries, next_cursor: audit.data.next_cursor },
      error: audit.error,
    };
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
                <dd>{actorOf(entry, members)}</dd>
                <dt>{texts.audit.action}</dt>
                <dd>{actionNames[entry.action]}</dd>
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
