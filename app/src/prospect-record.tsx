import { Fragment } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, messageOf } from './api';
import { leaveFor } from './arrival-notice';
import { ChangeEntries } from './change-entries';
import { ShownName } from './copyable-value';
import { fieldValueText, type FieldValues } from './field-values';
import { PersonRights } from './person-rights';
import { prospectName } from './prospect-names';
import { TagNames } from './prospects';
import { hrefOf } from './routes';
import type { components } from './settings-api';
import type { Workspace } from './session';
import { texts } from './texts';
import { useWorkspaceNames } from './workspace-names';

/** A prospect as the API shows it, with its custom fields' values by key (docs/api.md#custom-fields). */
type Prospect = components['schemas']['Prospect'] & { fields?: FieldValues };

/**
 * « Fiche prospect » (docs/api.md#settings-page): a prospect opened from « Prospects » (its list, or found by e-mail or
 * phone) is shown at its own address (`…/prospects/<prospect id>`, a link a colleague of the workspace can open), with
 * its custom fields by label in the order they were created, and its « Modifications par l'API », each undone in one
 * action; after an undo the prospect is read again, so that every field shown (its tags too, which the undo's answer
 * does not carry) is the API's. « Tous les prospects » leads back to the list, its filters as they were. An admin
 * exports the prospect's data or erases it (`PersonRights`); once erased, the page is back on the list, saying so
 * without naming the person.
 */
export function ProspectRecord({ workspace, prospectId }: { workspace: Workspace; prospectId: string }) {
  const [prospect, setProspect] = useState<Prospect>();
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
    void read(prospectId);
  }, [workspace.id, prospectId]);

  const readPage = (id: string) => (cursor: string | null) =>
    api.GET('/workspaces/{workspace_id}/prospects/{prospect_id}/changes', {
      params: { path: { workspace_id: workspace.id, prospect_id: id }, query: cursor === null ? {} : { cursor } },
    });

  return (
    <section aria-labelledby="prospect-heading">
      <p>
        <a href={hrefOf({ workspaceId: workspace.id, screen: 'prospects' })}>{texts.prospects.all}</a>
      </p>
      <h2 id="prospect-heading">{texts.prospect.heading}</h2>
      {failure && <p role="alert">{failure}</p>}
      {prospect === undefined && !failure && <p>{texts.loading}</p>}
      {prospect && !names.ready && <p>{texts.loading}</p>}
      {prospect && names.ready && (
        <article aria-labelledby="prospect-name">
          <h3 id="prospect-name">{prospectName(prospect)}</h3>
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
              <TagNames prospect={prospect} names={names} />
            </dd>
            {names.fields.map((field) => (
              <Fragment key={field.key}>
                <dt>{field.label}</dt>
                <dd class="field-value">{fieldValueText(prospect.fields?.[field.key] ?? null, field.type)}</dd>
              </Fragment>
            ))}
          </dl>
          <PersonRights
            workspace={workspace}
            person={{
              kind: 'prospect',
              id: prospect.id,
              name: prospectName(prospect),
              contact: prospect.email ?? prospect.phone,
            }}
            onErased={() => leaveFor({ workspaceId: workspace.id, screen: 'prospects' }, texts.rights.prospectErased)}
          />
          <h4>{texts.prospect.changes}</h4>
          <ChangeEntries
            key={prospect.id}
            workspace={workspace}
            names={names}
            readPage={readPage(prospect.id)}
            none={texts.prospect.noChanges}
            caption={texts.prospect.changes}
            showKey
            prospect={prospect}
            onUndone={() => void read(prospect.id)}
          />
        </article>
      )}
    </section>
  );
}
