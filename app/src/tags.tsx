import { useEffect, useState } from 'preact/hooks';
import { api, messageOf } from './api';
import type { components } from './settings-api';
import type { Workspace } from './session';
import { texts } from './texts';

type Tag = components['schemas']['Tag'];

/** The workspace's tags; an admin adds one (a member sees the list only, as the API allows). */
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

  return (
    <section aria-labelledby="tags-heading">
      <h2 id="tags-heading">{texts.tags.heading}</h2>
      {tags === undefined && !failure && <p>{texts.loading}</p>}
      {tags?.length === 0 && <p>{texts.tags.none}</p>}
      {tags && tags.length > 0 && (
        <ul>
          {tags.map((tag) => (
            <li key={tag.id}>{tag.name}</li>
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
