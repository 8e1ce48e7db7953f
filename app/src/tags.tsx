import { useEffect, useRef, useState } from 'preact/hooks';
import { api, messageOf } from './api';
import type { components } from './settings-api';
import type { Workspace } from './session';
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
      {tags && tags.length > 0 && (
        <ul>
          {tags.map((tag) => (
            <TagItem key={tag.id} tag={tag} onRename={workspace.role === 'admin' ? rename : undefined} />
          ))}
        </ul>
      )}
      {workspace.role === 'admin' && (
        <form onSubmit={(event) => void add(event)}>
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
 * A tag of the list; with `onRename` (an admin), a button that turns it into a field to rename it in place: Enter
 * saves, Escape cancels, and the focus goes to the field and back to the button so the keyboard never loses its place.
 */
function TagItem({ tag, onRename }: { tag: Tag; onRename?: (tag: Tag, name: string) => Promise<boolean> }) {
  const [editing, setEditing] = useState(false);
  const toggled = useRef(false);
  const button = useRef<HTMLButtonElement>(null);
  const field = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (toggled.current) (editing ? field.current : button.current)?.focus();
  }, [editing]);

  const edit = (next: boolean) => {
    toggled.current = true;
    setEditing(next);
  };
  const save = async (event: SubmitEvent) => {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget as HTMLFormElement).get('name'));
    if (await onRename?.(tag, name)) edit(false);
  };

  if (onRename === undefined) return <li>{tag.name}</li>;
  return (
    <li>
      {editing ? (
        <form
          class="inline"
          onSubmit={(event) => void save(event)}
          onKeyDown={(event) => event.key === 'Escape' && edit(false)}
        >
          <label for={`tag-${tag.id}`}>{texts.tags.newName(tag.name)}</label>
          <input ref={field} id={`tag-${tag.id}`} name="name" required maxLength={50} defaultValue={tag.name} />
          <button type="submit">{texts.tags.save}</button>
          <button type="button" onClick={() => edit(false)}>
            {texts.tags.cancel}
          </button>
        </form>
      ) : (
        <>
          {tag.name}{' '}
          <button ref={button} type="button" onClick={() => edit(true)}>
            {texts.tags.rename(tag.name)}
          </button>
        </>
      )}
    </li>
  );
}
