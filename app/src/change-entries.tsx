import { useState } from 'preact/hooks';
import { api, messageOf } from './api';
import { ShownName } from './copyable-value';
import type { ChangeEntry as Change, FieldValue } from './field-values';
import { usePages } from './pages';
import { useProspectNames } from './prospect-names';
import { hrefOf } from './routes';
import type { components } from './settings-api';
import type { Workspace } from './session';
import { Table } from './table';
import { texts } from './texts';
import type { WorkspaceNames } from './workspace-names';

type Undone = components['schemas']['ChangeUndone'];
type Prospect = components['schemas']['Prospect'];
/** A page of change-log entries as the API answers it, or its refusal. */
export type ChangePage = { data?: components['schemas']['ChangeList']; error?: unknown };

/**
 * Why an entry not yet undone cannot be, when the entries shown already say it (docs/api.md#undo): the API never
 * deletes a note (422), and refuses an entry once its prospect was written since (409), which a later entry on the same
 * prospect, or an undo after it, proves (the entries of one call share their time). A write the list does not show (a
 * webhook's, another key's) is the API's refusal to say, shown as sent.
 */
function undoRefusal(change: Change, shown: readonly Change[]): string | undefined {
  if (change.field === 'note') return texts.changes.noteKept;
  const writtenSince = shown.some(
    (other) =>
      other.prospect_id === change.prospect_id &&
      (other.at > change.at || (other.undone_at !== null && other.undone_at > change.at)),
  );
  return writtenSince ? texts.changes.changedSince : undefined;
}

/** An entry's undo: done (its date), refused in words (`undoRefusal`), or its button. */
function undoCell(change: Change, shown: readonly Change[], undo: (change: Change) => void) {
  if (change.undone_at !== null) return texts.changes.undone(texts.date(change.undone_at));
  const refusal = undoRefusal(change, shown);
  if (refusal !== undefined) return <span class="refusal">{refusal}</span>;
  return (
    <button type="button" class="secondary" onClick={() => undo(change)}>
      {texts.changes.undo}
    </button>
  );
}

/**
 * Change-log entries, newest first, read when shown, a page at a time (`usePages`: « Plus » while the API gives a
 * `next_cursor`): a key's changes or a prospect's, their prospects, fields (a custom field by its label), values and
 * keys by name (`names`, once they are read; the prospects' with one list call per page read, `useProspectNames`). Each that can be undone has its button, one that cannot says why when the entries
 * shown tell, and an entry undone is shown as the undo's answer gives it; any other refusal of the API is shown as
 * sent; `onUndone` hears of the undo.
 */
export function ChangeEntries(props: {
  workspace: Workspace;
  /** How the entries' fields and values are shown: stage, member, tag and custom field names, dates. */
  names: WorkspaceNames;
  readPage: (cursor: string | null) => Promise<ChangePage>;
  none: string;
  /** The table's name for assistive technology. */
  caption: string;
  /** Whether to name each entry's key (a prospect's changes come from several; a key's, from that one). */
  showKey?: boolean;
  /** The prospect whose changes these are, when it is shown already: its name costs no call. */
  prospect?: Prospect;
  onUndone?: (undone: Undone) => void;
}) {
  const [status, setStatus] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const prospects = useProspectNames(props.workspace, props.prospect ? [props.prospect] : []);
  // Each list (a key's, a prospect's) is a component of its own, so its first page is read once, when shown; the
  // page's prospects are named before it is shown, so that no id turns into a name under the person's eyes.
  const changes = usePages<Change>(async (cursor) => {
    const { data, error } = await props.readPage(cursor);
    if (data) await prospects.learn(data.changes.map((change) => change.prospect_id));
    return { page: data && { items: data.changes, next_cursor: data.next_cursor }, error };
  }, props.workspace.id);

  const names = props.names;
  const valueOf = (change: Change, value: FieldValue) => <ShownName named={names.value(change.field, value)} />;
  const columns = [
    texts.changes.at,
    texts.changes.prospect,
    ...(props.showKey ? [texts.changes.key] : []),
    texts.changes.fieldLabel,
    texts.changes.change,
  ];

  /** A prospect by its name, a link to its record; one since deleted in words, its id to copy. */
  const prospectCell = (id: string) => {
    const named = prospects.name(id);
    if (named.missingId !== undefined) return <ShownName named={named} />;
    return <a href={hrefOf({ workspaceId: props.workspace.id, screen: 'prospects', item: id })}>{named.text}</a>;
  };

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
      {(changes.items === undefined || !names.ready) && !changes.failure && <p>{texts.loading}</p>}
      {changes.items?.length === 0 && <p>{props.none}</p>}
      {names.ready && changes.items && changes.items.length > 0 && (
        <Table
          caption={props.caption}
          columns={columns}
          rows={changes.items.map((change, _index, shown) => ({
            key: change.id,
            cells: [
              texts.date(change.at),
              prospectCell(change.prospect_id),
              ...(props.showKey ? [<ShownName named={names.apiKey(change.key_id)} />] : []),
              <ShownName named={names.changedField(change.field)} />,
              <>
                {texts.changes.before} : {valueOf(change, change.before)} — {texts.changes.after} :{' '}
                {valueOf(change, change.after)}
              </>,
            ],
            actions: undoCell(change, shown, (chosen) => void undo(chosen)),
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
