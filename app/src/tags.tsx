import { useEffect, useRef, useState } from 'preact/hooks';
import { api, messageOf } from './api';
import { CopyableId } from './copyable-value';
import type { components } from './settings-api';
import type { Workspace } from './session';
import { Table } from './table';
import { texts } from './texts';

type Tag = components['schemas']['Tag'];

/** The workspace's tags; an admin adds one and renames one (a member sees the list only, as the API allows). */
export function Tags({ workspace }: { workspace: Workspace }) {
  const [tags, setTags] = useState<Tag[]>();
  const [status, setStatus] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const path = { workspace_id: workspace.id };

  useEffect(() => {
    void api.GET('/workspaces/{workspace_id}/tags', { params: { path } }).then(({ data, error }) => {
      if (data) setTags(data.tags);
      else setFailure(messageOf(error));
    });
  }, [workspace.id]);

  const add = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const name = String(new FormData(form).get('name'));
    const { data, error } = await api.POST('/workspaces/{workspace_id}/tags', { params: { path }, body: { name } });
    if (!data) return setFailure(messageOf(error));
    setFailure(undefined);
    setTags((known) => [...(known ?? []), data]);
    setStatus(texts.tags.added(data.name));
    form.reset();
  };

  const rename = async (tag: Tag, name: string): Promise<boolean> => {
    const { data, error } = await api.PATCH('/workspaces/{workspace_id}/tags/{tag_id}', {
      params: { path: { ...path, tag_id: tag.id } },
      body: { name },
    });
    if (!data) {
      setFailure(messageOf(error));
      return false;
    }
    setFailure(undefined);
    setTags((known) => known?.map((each) => (each.id === data.id ? data : each)));
    setStatus(texts.tags.renamed(tag.name, data.name));
    return true;
  };

  return (
    <section aria-labelledby="tags-heading">
      <h2 id="tags-heading">{texts.tags.heading}</h2>
      {tags === undefined && !failure && <p>{texts.loading}</p>}
      {tags?.length === 0 && <p>{texts.tags.none}</p>}
      {tags && tags.length > 0 && <TagTable tags={tags} onRename={workspace.role === 'admin' ? rename : undefined} />}
      {workspace.role === 'admin' && (
        <form class="inline" onSubmit={(event) => void add(event)}>
          <label for="tag-name">{texts.tags.name}</label>
          <input id="tag-name" name="name" required maxLength={50} />
          <button type="submit">{texts.tags.add}</button>
        </form>
      )}
      <p role="status">{status}</p>
      {failure && <p role="alert">{failure}</p>}
    </section>
  );
}

/**
 * The tags, one a row, each with its id to copy (what a lead's tags name); with `onRename` (an admin), each row's « Renommer » turns its name into a field to rename it in
 * place: Enter saves, Escape cancels, and the focus goes to the field and back to the button so the keyboard never
 * loses its place.
 */
function TagTable({ tags, onRename }: { tags: Tag[]; onRename?: (tag: Tag, name: string) => Promise<boolean> }) {
  const [editing, setEditing] = useState<string>();
  const left = useRef<string | undefined>(undefined);

  useEffect(() => {
    const focused = editing === undefined ? left.current && `rename-${left.current}` : `tag-${editing}`;
    if (focused) document.getElementById(focused)?.focus();
  }, [editing]);

  const edit = (id: string | undefined) => {
    left.current = editing;
    setEditing(id);
  };
  const save = async (tag: Tag, event: SubmitEvent) => {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget as HTMLFormElement).get('name'));
    if (await onRename?.(tag, name)) edit(undefined);
  };

  return (
    <Table
      caption={texts.tags.heading}
      columns={[texts.tags.column, texts.tags.idColumn]}
      rows={tags.map((tag) => ({
        key: tag.id,
        cells: [
          editing === tag.id ? (
            <form
              class="inline"
              onSubmit={(event) => void save(tag, event)}
              onKeyDown={(event) => event.key === 'Escape' && edit(undefined)}
            >
              <label for={`tag-${tag.id}`}>{texts.tags.newName(tag.name)}</label>
              <input id={`tag-${tag.id}`} name="name" required maxLength={50} defaultValue={tag.name} />
              <button type="submit">{texts.tags.save}</button>
              <button type="button" class="secondary" onClick={() => edit(undefined)}>
                {texts.tags.cancel}
              </button>
            </form>
          ) : (
            tag.name
          ),
          <CopyableId id={tag.id} label={texts.tags.copyId(tag.name)} />,
        ],
        ...(onRename === undefined || editing === tag.id
          ? {}
          : {
              actions: (
                <button
                  id={`rename-${tag.id}`}
                  type="button"
                  class="secondary"
                  aria-label={texts.tags.rename(tag.name)}
                  onClick={() => edit(tag.id)}
                >
                  {texts.tags.renameShort}
                </button>
              ),
            }),
      }))}
    />
  );
}
