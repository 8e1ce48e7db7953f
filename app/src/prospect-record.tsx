import { Fragment } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, messageOf } from './api';
import { ChangeEntries } from './change-entries';
import { ShownName } from './copyable-value';
import { fieldValueText, type FieldValues } from './field-values';
import { goTo } from './routes';
import type { components } from './settings-api';
import type { Workspace } from './session';
import { texts } from './texts';
import { useWorkspaceNames } from './workspace-names';

/** A prospect as the API shows it, with its custom fields' values by key (docs/api.md#custom-fields). */
type Prospect = components['schemas']['Prospect'] & { fields?: FieldValues };
type Marker = 'email' | 'phone';

/**
 * « Fiche prospect » (docs/api.md#settings-page): a prospect found by e-mail or phone, as the lead webhook would match
 * it, is shown at its own address (`…/prospects/<prospect id>`, a link a colleague of the workspace can open), with its
 * custom fields by label in the order they were created, and its « Modifications par l'API », each undone in one
 * action; after an undo the prospect is read again, so that every field shown (its tags too, which the undo's answer
 * does not carry) is the API's.
 */
export function ProspectRecord({ workspace, prospectId }: { workspace: Workspace; prospectId: string | undefined }) {
  const [prospect, setProspect] = useState<Prospect | null>();
  const [failure, setFailure] = useState<string>();
  const names = useWorkspaceNames(workspace);

  const read = async (id: string) => {
    const { data, error } = await api.GET('/workspaces/{workspace_id}/prospects/{prospect_id}', {
      params: { path: { workspace_id: workspace.id, prospect_id: id } },
    });
    if (!data) return setFailure(messageOf(error));
    setFailure(undefined);
    setProspect(data);
  };

  useEffect(() => {
    setProspect(undefined);
    if (prospectId !== undefined) void read(prospectId);
  }, [workspace.id, prospectId]);

  const find = async (event: SubmitEvent) => {
    event.preventDefault();
    const fields = new FormData(event.currentTarget as HTMLFormElement);
    const marker = fields.get('marker') === 'phone' ? 'phone' : 'email';
    const query: Partial<Record<Marker, string>> = { [marker]: String(fields.get('value')) };
    const { data, error } = await api.GET('/workspaces/{workspace_id}/prospects', {
      params: { path: { workspace_id: workspace.id }, query },
    });
    if (!data) return setFailure(messageOf(error));
    setFailure(undefined);
    const [found] = data.prospects;
    if (found) goTo({ workspaceId: workspace.id, screen: 'prospects', item: found.id });
    else setProspect(null);
  };

  const readPage = (id: string) => (cursor: string | null) =>
    api.GET('/workspaces/{workspace_id}/prospects/{prospect_id}/changes', {
      params: { path: { workspace_id: workspace.id, prospect_id: id }, query: cursor === null ? {} : { cursor } },
    });

  return (
    <section aria-labelledby="prospect-heading">
      <h2 id="prospect-heading">{texts.prospect.heading}</h2>
      <form class="search" onSubmit={(event) => void find(event)}>
        <fieldset>
          <legend>{texts.prospect.by}</legend>
          <label class="choice">
            <input type="radio" name="marker" value="email" defaultChecked /> {texts.prospect.email}
          </label>
          <label class="choice">
            <input type="radio" name="marker" value="phone" /> {texts.prospect.phone}
          </label>
        </fieldset>
        <label for="prospect-value">{texts.prospect.value}</label>
        <input id="prospect-value" name="value" required />
        <button type="submit">{texts.prospect.find}</button>
      </form>
      {failure && <p role="alert">{failure}</p>}
      {prospect === null && <p role="status">{texts.prospect.none}</p>}
      {prospect && !names.ready && <p>{texts.loading}</p>}
      {prospect && names.ready && (
        <article aria-labelledby="prospect-name">
          <h3 id="prospect-name">
            {[prospect.first_name, prospect.last_name].filter(Boolean).join(' ') || prospect.id}
          </h3>
          <dl class="summary">
            <dt>{texts.prospect.email}</dt>
            <dd>{prospect.email ?? texts.changes.empty}</dd>
            <dt>{texts.prospect.phone}</dt>
            <dd>{prospect.phone ?? texts.changes.empty}</dd>
            <dt>{texts.changes.field.stage}</dt>
            <dd>
              <ShownName named={names.stage(prospect.stage_id)} />
            </dd>
            <dt>{texts.changes.field.setter}</dt>
            <dd>
              <ShownName named={names.member(prospect.setter_id)} />
            </dd>
            <dt>{texts.changes.field.closer}</dt>
            <dd>
              <ShownName named={names.member(prospect.closer_id)} />
            </dd>
            <dt>{texts.changes.field.follow_up}</dt>
            <dd>
              <ShownName named={names.value('follow_up', prospect.next_follow_up_at)} />
            </dd>
            <dt>{texts.changes.field.tags}</dt>
            <dd>
              {prospect.tags.length === 0
                ? texts.changes.empty
                : prospect.tags.map((tag, index) => (
                    <Fragment key={tag.id}>
                      {index > 0 && ', '}
                      <ShownName named={tag.name === null ? names.tag(tag.id) : { text: tag.name }} />
                    </Fragment>
                  ))}
            </dd>
            {names.fields.map((field) => (
              <Fragment key={field.key}>
                <dt>{field.label}</dt>
                <dd class="field-value">{fieldValueText(prospect.fields?.[field.key] ?? null, field.type)}</dd>
              </Fragment>
            ))}
          </dl>
          <h4>{texts.prospect.changes}</h4>
          <ChangeEntries
            key={prospect.id}
            workspace={workspace}
            names={names}
            readPage={readPage(prospect.id)}
            none={texts.prospect.noChanges}
            caption={texts.prospect.changes}
            showKey
            onUndone={() => void read(prospect.id)}
          />
        </article>
      )}
    </section>
  );
}
