import { useState } from 'preact/hooks';
import { api, messageOf } from './api';
import { usePages } from './pages';
import { hrefOf } from './routes';
import type { components } from './settings-api';
import type { Workspace } from './session';
import { Table } from './table';
import { texts } from './texts';
import type { WorkspaceNames } from './workspace-names';

type Change = components['schemas']['ChangeList']['changes'][number];
type Undone = components['schemas']['ChangeUndone'];
/** A page of change-log entries as the API answers it, or its refusal. */
export type ChangePage = { data?: components['schemas']['ChangeList']; error?: unknown };

const fieldNames: Record<Change['field'], string> = texts.changes.field;

/** The API never deletes a note (422), and an entry undone stays undone (409): neither is offered an undo button. */
const canUndo = (change: Change) => change.undone_at === null && change.field !== 'note';

/**
 * Change-log entries, newest first, read when shown, a page at a time (`usePages`: « Plus » while the API gives a
 * `next_cursor`): a key's changes or a prospect's. Each that can be undone has its button, and an entry undone is
 * shown as the undo's answer gives it; the API's refusal (the prospect changed since) is shown as sent; `onUndone`
 * hears the prospect as the undo left it.
 */
export function ChangeEntries(props: {
  workspace: Workspace;
  /** How the entries' values are shown: stage, member and tag names, dates. */
  names: WorkspaceNames;
  readPage: (cursor: string | null) => Promise<ChangePage>;
  none: string;
  /** The table's name for assistive technology. */
  caption: string;
  onUndone?: (undone: Undone) => void;
}) {
  const [status, setStatus] = useState<string>();
  const [failure, setFailure] = useState<string>();
  // Each list (a key's, a prospect's) is a component of its own, so its first page is read once, when shown.
  const changes = usePages<Change>(async (cursor) => {
    const { data, error } = await props.readPage(cursor);
    return { page: data && { items: data.changes, next_cursor: data.next_cursor }, error };
  }, props.workspace.id);

  const undo = async (change: Change) => {
    const { data, error } = await api.POST('/workspaces/{workspace_id}/changes/{entry_id}/undo', {
      params: { path: { workspace_id: props.workspace.id, entry_id: change.id } },
    });
    if (!data) return setFailure(messageOf(error));
    setFailure(undefined);
    changes.replace(data.entry);
    setStatus(texts.changes.undoneNow);
    props.onUndone?.(data);
  };

  return (
    <>
      {changes.items === undefined && !changes.failure && <p>{texts.loading}</p>}
      {changes.items?.length === 0 && <p>{props.none}</p>}
      {changes.items && changes.items.length > 0 && (
        <Table
          caption={props.caption}
          columns={[texts.changes.at, texts.changes.prospect, texts.changes.fieldLabel, texts.changes.change]}
          rows={changes.items.map((change) => ({
            key: change.id,
            cells: [
              texts.date(change.at),
              <a href={hrefOf({ workspaceId: props.workspace.id, screen: 'prospects', item: change.prospect_id })}>
                {change.prospect_id}
              </a>,
              fieldNames[change.field],
              `${texts.changes.before} : ${props.names.value(change.field, change.before)} — ${texts.changes.after} : ${props.names.value(change.field, change.after)}`,
            ],
            actions:
              change.undone_at !== null ? (
                texts.changes.undone(texts.date(change.undone_at))
              ) : canUndo(change) ? (
                <button type="button" class="secondary" onClick={() => void undo(change)}>
                  {texts.changes.undo}
                </button>
              ) : undefined,
          }))}
        />
      )}
      {changes.hasMore && (
        <button type="button" onClick={changes.more}>
          {texts.changes.more}
        </button>
      )}
      {changes.failure && <p role="alert">{changes.failure}</p>}
      <p role="status">{status}</p>
      {failure && <p role="alert">{failure}</p>}
    </>
  );
}
