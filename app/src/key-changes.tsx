import { useId, useState } from 'preact/hooks';
import { api, messageOf } from './api';
import type { components } from './settings-api';
import type { Workspace } from './session';
import { texts } from './texts';

type ApiKey = components['schemas']['ApiKeyList']['api_keys'][number];
type Change = components['schemas']['ChangeList']['changes'][number];

const fieldNames: Record<Change['field'], string> = texts.changes.field;

/** The API never deletes a note (422), and an entry undone stays undone (409): neither is offered an undo button. */
const canUndo = (change: Change) => change.undone_at === null && change.field !== 'note';

/**
 * The changes a key made, newest first, read when the person opens them (again on each opening: the API lists them
 * from an index a moment behind), a page at a time (« Plus » while the API gives a `next_cursor`); each that can be
 * undone has its button, and the API's refusal (the prospect changed since) is shown as sent.
 */
export function KeyChanges({ workspace, apiKey }: { workspace: Workspace; apiKey: ApiKey }) {
  const [changes, setChanges] = useState<Change[]>();
  const [cursor, setCursor] = useState<string | null>(null);
  const [status, setStatus] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const panelId = useId();
  const opened = changes !== undefined;

  const read = async (after: string | null) => {
    const { data, error } = await api.GET('/workspaces/{workspace_id}/api-keys/{key_id}/changes', {
      params: {
        path: { workspace_id: workspace.id, key_id: apiKey.id },
        query: after === null ? {} : { cursor: after },
      },
    });
    if (!data) return setFailure(messageOf(error));
    setFailure(undefined);
    setChanges((known) => (after === null ? data.changes : [...(known ?? []), ...data.changes]));
    setCursor(data.next_cursor);
  };

  const toggle = () => {
    setStatus(undefined);
    if (opened) return setChanges(undefined);
    void read(null);
  };

  const undo = async (change: Change) => {
    const { data, error } = await api.POST('/workspaces/{workspace_id}/changes/{entry_id}/undo', {
      params: { path: { workspace_id: workspace.id, entry_id: change.id } },
    });
    if (!data) return setFailure(messageOf(error));
    setFailure(undefined);
    setChanges((known) => known?.map((each) => (each.id === data.entry.id ? data.entry : each)));
    setStatus(texts.changes.undoneNow);
  };

  return (
    <div class="changes">
      <button type="button" aria-expanded={opened} aria-controls={panelId} onClick={toggle}>
        {texts.apiKeys.showChanges(apiKey.name)}
      </button>
      <div id={panelId}>
        {changes?.length === 0 && <p>{texts.changes.none}</p>}
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
        {opened && cursor !== null && (
          <button type="button" onClick={() => void read(cursor)}>
            {texts.changes.more}
          </button>
        )}
        <p role="status">{status}</p>
        {failure && <p role="alert">{failure}</p>}
      </div>
    </div>
  );
}
