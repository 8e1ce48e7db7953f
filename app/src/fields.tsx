import { useEffect, useState } from 'preact/hooks';
import { api, messageOf } from './api';
import { CopyableId } from './copyable-value';
import type { FieldDefinition as Field } from './field-values';
import { hrefOf } from './routes';
import { RowLink } from './row-link';
import type { Workspace } from './session';
import { Table } from './table';
import { texts } from './texts';

type FieldType = Field['type'];
type UpdateRule = Field['update'];

const typeNames: Record<FieldType, string> = texts.fields.types;
const updateNames: Record<UpdateRule, string> = texts.fields.updates;
/** The types offered, as `texts.fields.types` lists them: every type the API has (its `satisfies` holds it). */
const typeChoices = Object.keys(typeNames) as FieldType[];
const updateChoices = Object.keys(updateNames) as UpdateRule[];

/** The types whose values are options of the definition, which only they have (docs/api.md#custom-fields). */
const hasOptions = (type: FieldType) => type === 'choice' || type === 'multi_choice';

/** A text area's names, one a line, blank lines left out (the API trims each). */
const lines = (value: FormDataEntryValue | null): string[] =>
  String(value ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** Names one a line in a cell (a field's options, its aliases), or the words for none. */
const listed = (names: string[] | null, none: string) =>
  names && names.length > 0 ? (
    <ul class="names">
      {names.map((name) => (
        <li key={name}>{name}</li>
      ))}
    </ul>
  ) : (
    none
  );

/**
 * « Champs » (docs/api.md#settings-page): the workspace's custom fields, one a row, each with its key to copy (what a
 * form or an integration sends the value under); every member reads them. An admin creates one, changes one at its own
 * address (`…/champs/<key>`: label, options added or reordered, aliases, update rule) and deletes one after a
 * confirmation saying its values leave every prospect. The API's refusals are shown as it words them.
 */
export function Fields({ workspace, fieldKey }: { workspace: Workspace; fieldKey: string | undefined }) {
  const [fields, setFields] = useState<Field[]>();
  // What the API accepted, and on which page (the list: no key): the list's news is not news on a field's page.
  const [status, setStatus] = useState<{ text: string; on: string | undefined }>();
  const [failure, setFailure] = useState<string>();
  const path = { workspace_id: workspace.id };
  const isAdmin = workspace.role === 'admin';

  useEffect(() => {
    void api.GET('/workspaces/{workspace_id}/fields', { params: { path } }).then(({ data, error }) => {
      if (data) setFields(data.fields);
      else setFailure(messageOf(error));
    });
  }, [workspace.id]);

  /** After a change the API accepted: what happened, and no earlier refusal left on screen. */
  const done = (what: string) => {
    setFailure(undefined);
    setStatus({ text: what, on: fieldKey });
  };

  const create = async (form: HTMLFormElement): Promise<boolean> => {
    const values = new FormData(form);
    const type = values.get('type') as FieldType;
    const { data, error } = await api.POST('/workspaces/{workspace_id}/fields', {
      params: { path },
      body: {
        key: String(values.get('key')).trim(),
        label: String(values.get('label')),
        type,
        ...(hasOptions(type) ? { options: lines(values.get('options')) } : {}),
        aliases: lines(values.get('aliases')),
        update: values.get('update') as UpdateRule,
      },
    });
    if (!data) {
      setFailure(messageOf(error));
      return false;
    }
    setFields((known) => [...(known ?? []), data]);
    done(texts.fields.created(data.label));
    return true;
  };

  const change = async (field: Field, form: HTMLFormElement) => {
    const values = new FormData(form);
    const { data, error } = await api.PATCH('/workspaces/{workspace_id}/fields/{field_key}', {
      params: { path: { ...path, field_key: field.key } },
      body: {
        label: String(values.get('label')),
        ...(field.options === null ? {} : { options: lines(values.get('options')) }),
        aliases: lines(values.get('aliases')),
        update: values.get('update') as UpdateRule,
      },
    });
    if (!data) return setFailure(messageOf(error));
    setFields((known) => known?.map((each) => (each.key === data.key ? data : each)));
    done(texts.fields.saved(data.label));
  };

  const remove = async (field: Field) => {
    if (!window.confirm(texts.fields.confirmRemove(field.label))) return;
    const { data, error } = await api.DELETE('/workspaces/{workspace_id}/fields/{field_key}', {
      params: { path: { ...path, field_key: field.key } },
    });
    if (!data) return setFailure(messageOf(error));
    setFields((known) => known?.filter((each) => each.key !== data.key));
    done(texts.fields.removed(field.label));
  };

  const notices = (
    <>
      <p role="status">{status && status.on === fieldKey ? status.text : undefined}</p>
      {failure && <p role="alert">{failure}</p>}
    </>
  );

  if (fieldKey !== undefined) {
    const opened = fields?.find((field) => field.key === fieldKey);
    return (
      <section aria-labelledby="field-heading">
        <p>
          <a href={hrefOf({ workspaceId: workspace.id, screen: 'champs' })}>{texts.fields.all}</a>
        </p>
        {fields === undefined && !failure && <p>{texts.loading}</p>}
        {fields && !opened && <p role="alert">{texts.fields.unknown}</p>}
        {opened && (
          <>
            <h2 id="field-heading">{texts.fields.named(opened.label)}</h2>
            <dl class="summary">
              <dt>{texts.fields.key}</dt>
              <dd>
                <CopyableId id={opened.key} label={texts.fields.copyKey(opened.label)} />
              </dd>
              <dt>{texts.fields.type}</dt>
              <dd>{typeNames[opened.type]}</dd>
              <dt>{texts.fields.options}</dt>
              <dd>{listed(opened.options, texts.fields.noOptions)}</dd>
              <dt>{texts.fields.aliases}</dt>
              <dd>{listed(opened.aliases, texts.fields.noAliases)}</dd>
              <dt>{texts.fields.update}</dt>
              <dd>{updateNames[opened.update]}</dd>
            </dl>
            {isAdmin && <FieldChangeForm key={opened.key} field={opened} onSubmit={change} />}
          </>
        )}
        {notices}
      </section>
    );
  }

  return (
    <section aria-labelledby="fields-heading">
      <h2 id="fields-heading">{texts.fields.heading}</h2>
      {fields === undefined && !failure && <p>{texts.loading}</p>}
      {fields?.length === 0 && <p>{texts.fields.none}</p>}
      {fields && fields.length > 0 && (
        <Table
          caption={texts.fields.heading}
          columns={[
            texts.fields.label,
            texts.fields.key,
            texts.fields.type,
            texts.fields.options,
            texts.fields.aliases,
            texts.fields.update,
          ]}
          rows={fields.map((field) => ({
            key: field.key,
            cells: [
              <strong>{field.label}</strong>,
              <CopyableId id={field.key} label={texts.fields.copyKey(field.label)} />,
              typeNames[field.type],
              listed(field.options, texts.fields.noOptions),
              listed(field.aliases, texts.fields.noAliases),
              updateNames[field.update],
            ],
            ...(isAdmin
              ? {
                  actions: (
                    <>
                      <RowLink
                        href={hrefOf({ workspaceId: workspace.id, screen: 'champs', item: field.key })}
                        label={texts.fields.edit(field.label)}
                        short={texts.fields.editShort}
                      />
                      <button
                        type="button"
                        class="danger"
                        aria-label={texts.fields.remove(field.label)}
                        onClick={() => void remove(field)}
                      >
                        {texts.fields.removeShort}
                      </button>
                    </>
                  ),
                }
              : {}),
          }))}
        />
      )}
      {isAdmin && <NewFieldForm onSubmit={create} />}
      {notices}
    </section>
  );
}

/** The rule a lead of a contact already known follows, as radio buttons (two choices, both read at once). */
function UpdateRuleChoice({ checked }: { checked: UpdateRule }) {
  return (
    <fieldset>
      <legend>{texts.fields.updateLegend}</legend>
      {updateChoices.map((rule) => (
        <label key={rule} class="choice">
          <input type="radio" name="update" value={rule} defaultChecked={rule === checked} /> {updateNames[rule]}
        </label>
      ))}
    </fieldset>
  );
}

/**
 * A new field: label, key, type; the options field only for a type that has options; aliases and the update rule
 * (the API's default, « always », checked). Emptied once the API created it, kept as typed when it refused.
 */
function NewFieldForm({ onSubmit }: { onSubmit: (form: HTMLFormElement) => Promise<boolean> }) {
  const [type, setType] = useState<FieldType>('text');
  const words = texts.fields.create;
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    if (!(await onSubmit(form))) return;
    form.reset();
    setType('text');
  };
  return (
    <form onSubmit={(event) => void submit(event)}>
      <h3>{words.heading}</h3>
      <label for="field-label">{words.label}</label>
      <input id="field-label" name="label" required maxLength={100} autoComplete="off" />
      <label for="field-key">{words.key}</label>
      <input
        id="field-key"
        name="key"
        required
        maxLength={40}
        autoComplete="off"
        spellcheck={false}
        aria-describedby="field-key-help"
      />
      <p id="field-key-help" class="hint">
        {words.keyHelp}
      </p>
      <label for="field-type">{words.type}</label>
      <select
        id="field-type"
        name="type"
        value={type}
        aria-describedby="field-type-help"
        onChange={(event) => setType(event.currentTarget.value as FieldType)}
      >
        {typeChoices.map((choice) => (
          <option key={choice} value={choice}>
            {typeNames[choice]}
          </option>
        ))}
      </select>
      <p id="field-type-help" class="hint">
        {words.typeHelp}
      </p>
      {hasOptions(type) && (
        <>
          <label for="field-options">{words.options}</label>
          <textarea id="field-options" name="options" rows={4} required aria-describedby="field-options-help" />
          <p id="field-options-help" class="hint">
            {texts.fields.optionsHelp}
          </p>
        </>
      )}
      <label for="field-aliases">{words.aliases}</label>
      <textarea id="field-aliases" name="aliases" rows={3} aria-describedby="field-aliases-help" />
      <p id="field-aliases-help" class="hint">
        {texts.fields.aliasesHelp}
      </p>
      <UpdateRuleChoice checked="always" />
      <button type="submit">{words.submit}</button>
    </form>
  );
}

/**
 * A field's change, filled with its definition: label, options (one a line, for a type that has them: added or
 * reordered; the API refuses one left out), aliases, update rule. Its key and type never change.
 */
function FieldChangeForm({
  field,
  onSubmit,
}: {
  field: Field;
  onSubmit: (field: Field, form: HTMLFormElement) => Promise<void>;
}) {
  const words = texts.fields.change;
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    void onSubmit(field, event.currentTarget as HTMLFormElement);
  };
  return (
    <form onSubmit={submit}>
      <h3>{words.heading}</h3>
      <label for="field-change-label">{words.label}</label>
      <input
        id="field-change-label"
        name="label"
        required
        maxLength={100}
        autoComplete="off"
        defaultValue={field.label}
      />
      {field.options !== null && (
        <>
          <label for="field-change-options">{words.options}</label>
          <textarea
            id="field-change-options"
            name="options"
            rows={Math.min(field.options.length + 2, 12)}
            required
            aria-describedby="field-change-options-help"
            defaultValue={field.options.join('\n')}
          />
          <p id="field-change-options-help" class="hint">
            {words.optionsHelp}
          </p>
        </>
      )}
      <label for="field-change-aliases">{words.aliases}</label>
      <textarea
        id="field-change-aliases"
        name="aliases"
        rows={Math.min(field.aliases.length + 2, 12)}
        aria-describedby="field-change-aliases-help"
        defaultValue={field.aliases.join('\n')}
      />
      <p id="field-change-aliases-help" class="hint">
        {texts.fields.aliasesHelp}
      </p>
      <UpdateRuleChoice checked={field.update} />
      <button type="submit">{words.submit}</button>
    </form>
  );
}
