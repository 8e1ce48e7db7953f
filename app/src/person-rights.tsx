import { useEffect, useRef, useState } from 'preact/hooks';
import { api, messageOf } from './api';
import type { Workspace } from './session';
import { texts } from './texts';

/**
 * Whose rights these are: a prospect or a candidate, by id, named as the page shows it (`name`) with its e-mail or
 * phone (`contact`), so that the confirmation of an erasure says exactly who goes.
 */
export type Person = { kind: 'prospect' | 'candidate'; id: string; name: string; contact: string | null };

/** What the export gave: a file the browser saves, or a link to the document when it is too big (15 minutes). */
type Exported = { file: { name: string; url: string } } | { link: string };

const exportOf = (workspaceId: string, person: Person) =>
  person.kind === 'prospect'
    ? api.GET('/workspaces/{workspace_id}/prospects/{prospect_id}/export', {
        params: { path: { workspace_id: workspaceId, prospect_id: person.id } },
      })
    : api.GET('/workspaces/{workspace_id}/candidates/{candidate_id}/export', {
        params: { path: { workspace_id: workspaceId, candidate_id: person.id } },
      });

const erasureOf = (workspaceId: string, person: Person) =>
  person.kind === 'prospect'
    ? api.POST('/workspaces/{workspace_id}/prospects/{prospect_id}/erase', {
        params: { path: { workspace_id: workspaceId, prospect_id: person.id } },
      })
    : api.POST('/workspaces/{workspace_id}/candidates/{candidate_id}/erase', {
        params: { path: { workspace_id: workspaceId, candidate_id: person.id } },
      });

/**
 * « Exporter » and « Effacer » for one person (docs/api.md#erasure-export-and-retention), an admin's only: a member
 * sees neither, the API refusing both to them. The export is saved as a JSON file named by the person's kind and id
 * (the API's document, kept in the tab as a Blob until the screen closes, a link offering it again), or, past 5 MB,
 * offered as the API's link, valid 15 minutes. The erasure waits for the same confirmation as the page's other
 * deletions, naming the person and saying it cannot be undone; `onErased` then takes the person off the screen.
 */
export function PersonRights({
  workspace,
  person,
  onErased,
}: {
  workspace: Workspace;
  person: Person;
  onErased: () => void;
}) {
  const [exported, setExported] = useState<Exported>();
  const [failure, setFailure] = useState<string>();
  const saved = useRef<HTMLAnchorElement>(null);
  const file = exported && 'file' in exported ? exported.file : undefined;

  // The file saved as soon as it is ready, and its Blob let go when another replaces it or the screen closes.
  useEffect(() => {
    if (!file) return;
    saved.current?.click();
    return () => URL.revokeObjectURL(file.url);
  }, [file]);

  if (workspace.role !== 'admin') return null;
  const who = texts.rights.who(person.name, person.contact);

  const exportData = async () => {
    const { data, error } = await exportOf(workspace.id, person);
    if (!data) return setFailure(messageOf(error));
    setFailure(undefined);
    if ('download_url' in data) return setExported({ link: data.download_url });
    const contents = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
    const name = texts.rights.fileName(person.kind === 'prospect' ? 'prospect' : 'candidat', person.id);
    setExported({ file: { name, url: URL.createObjectURL(contents) } });
  };

  const erase = async () => {
    const what = person.kind === 'prospect' ? texts.rights.prospect : texts.rights.candidate;
    if (!window.confirm(texts.rights.confirmErase(what, who))) return;
    const { data, error } = await erasureOf(workspace.id, person);
    if (!data) return setFailure(messageOf(error));
    onErased();
  };

  return (
    <div class="person-rights">
      <div class="actions">
        <button
          type="button"
          class="secondary"
          aria-label={texts.rights.exportOf(who)}
          onClick={() => void exportData()}
        >
          {texts.rights.export}
        </button>
        <button type="button" class="danger" aria-label={texts.rights.eraseOf(who)} onClick={() => void erase()}>
          {texts.rights.erase}
        </button>
      </div>
      <p role="status">
        {file && texts.rights.exported(file.name)}
        {exported && 'link' in exported && texts.rights.exportedAsLink}
      </p>
      {file && (
        <p>
          <a ref={saved} href={file.url} download={file.name}>
            {texts.rights.saveAgain(file.name)}
          </a>
        </p>
      )}
      {exported && 'link' in exported && (
        <p>
          <a href={exported.link} rel="noreferrer">
            {texts.rights.download}
          </a>
        </p>
      )}
      {failure && <p role="alert">{failure}</p>}
    </div>
  );
}
