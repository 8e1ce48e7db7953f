import { useEffect, useState } from 'preact/hooks';
import { api, messageOf } from './api';
import type { components } from './settings-api';
import type { Workspace } from './session';
import { texts } from './texts';

type Change = components['schemas']['ChangeList']['changes'][number];
type Undone = components['schemas']['ChangeUndone'];
/** A page of change-log entries as the API answers it, or its refusal. */
export type ChangePage = { data?: components['schemas']['ChangeList']; error?: unknown };

const fieldNames: Record<Change['field'], string> = texts.changes.field;

/** The API never deletes a note (422), and an entry undone stays undone (409): neither is offered an undo button. */
const canUndo = (change: Change) => change.undone_at === null && change.field !== 'note';

/**
 * Change-log entries, newest first, read when shown, a page at a time (« Plus » while the API gives a
 * `next_cursor`): a key's changes or a prospect's. Each that can be undone has its button; the API's refusal (the
 * prospect changed since) is shown as sent; `onUndone` hears the prospect as the undo left it.
 */
export function ChangeEntries(props: {
  workspace: Workspace;
  readPage: (cursor: string | null) => Promise<ChangePage>;
  none: string;
  onUndone?: (undone: Undone) => void;
}) {
  const [changes, setChanges] = useState<Change[]>();
  const [cursor, setCursor] = useState<string | null>(null);
  const [status, setStatus] = useState<string>();
  const [failure, setFailure] = useState<string>();

  const read = async (after: string | null) => {
    const { data, error } = await props.readPage(after);
    if (!data) return setFailure(messageOf(error));
    setFailure(undefined);
    setChanges((known) => (after === null ? data.changes : [...(known ?? []), ...data.changes]));
    setCursor(data.next_cursor);
  };
  useEffect(() => void read(null), []);

  const undo = async (change: Change) => {
    const { data, error } = await api.POST('/workspaces/{workspace_id}/changes/{entry_id}/undo', {
      params: { path: { workspace_id: props.workspace.id, entry_id: change.id } },
    });
    if (!data) return setFailure(messageOf(error));
    setFailure(undefined);
    setChanges((known) => known?.map((each) => (each.id === data.entry.id ? data.entry : each)));
    setStatus(texts.changes.undoneNow);
    props.onUndone?.(data);
  };

  return (
    <>
      {changes === undefined && !failure && <p>{texts.loading}</p>}
      {changes?.length === 0 && <p>{props.none}</p>}
      {changes && changes.length > 0 && (
        <ul class="cards">
          {changes.map((change) => (
            <li key={change.id}>
              <dl>
                <dt>{texts.changes.at}</dt>
                <dd>{texts.date(change.at)}</dd>
                <dt>{texts.changes.prospect}</dt>
                <dd>{change.prospect_id}</dd>
                <dt>{fieldNames[change.field]}</dt>
                <dd>
                  {texts.changes.before} : {change.before ?? texts.changes.empty} — {texts.changes.after} :{' '}
                  {change.after ?? texts.changes.empty}
                </dd>
              </dl>
              {change.undone_at !== null && <p>{texts.changes.undone(texts.date(change.undone_at))}</p>}
              {canUndo(change) && (
                <button type="button" onClick={() => void undo(change)}>
                  {texts.changes.undo}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {cursor !== null && (
        <button type="button" onClick={() => void read(cursor)}>
          {texts.changes.more}
        </button>
      )}
      <p role="status">{status}</p>
      {failure && <p role="alert">{failure}</p>}
    </>
  );
}
