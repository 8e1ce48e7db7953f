import { useEffect, useState } from 'preact/hooks';
import { api, messageOf } from './api';
import { KeyChanges } from './key-changes';
import { hrefOf } from './routes';
import { useWorkspaceNames } from './workspace-names';
import { SecretOnce } from './secret-once';
import type { components } from './settings-api';
import type { Workspace } from './session';
import { Table } from './table';
import { texts } from './texts';
import { RowLink } from './row-link';

type ApiKey = components['schemas']['ApiKeyList']['api_keys'][number];
type Scope = NonNullable<components['schemas']['NewApiKey']['scopes']>[number];

/**
 * The scopes offered as checkboxes: those of the OpenAPI enum (`NewApiKey.scopes` in the generated types). `satisfies`
 * refuses a scope the API does not accept, and `scopeChoices` fails the type check when the API accepts one this
 * list lacks (its element type collapses to `never`), so the checkboxes cannot drift from the API after
 * `npm run app:types`.
 */
const scopes = [
  'pipelines:read',
  'prospects:read',
  'prospects:write',
  'notes:write',
  'tags:write',
  '*',
] as const satisfies readonly Scope[];
type Unlisted = Exclude<Scope, (typeof scopes)[number]>;
const scopeChoices: readonly ([Unlisted] extends [never] ? Scope : never)[] = scopes;
const scopeNames: Record<Scope, string> = texts.apiKeys.scope;

/** The API's own default when a key is created without scopes: every one but `*` (NewApiKey.scopes). */
const checkedAtFirst = (scope: Scope) => scope !== '*';

/**
 * The workspace's API keys, revoked ones included, one a row; a key's own address (`…/cles/<key id>`) shows it with
 * the changes it made (a member may read them and undo one, as the API allows); an admin also creates a key (its
 * value shown once) and revokes one after confirming.
 */
export function ApiKeys({ workspace, keyId }: { workspace: Workspace; keyId: string | undefined }) {
  const [keys, setKeys] = useState<ApiKey[]>();
  const [created, setCreated] = useState<{ name: string; secret: string }>();
  const [status, setStatus] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const path = { workspace_id: workspace.id };
  const isAdmin = workspace.role === 'admin';
  const names = useWorkspaceNames(workspace);

  const load = async () => {
    const { data, error } = await api.GET('/workspaces/{workspace_id}/api-keys', { params: { path } });
    if (data) setKeys(data.api_keys);
    else setFailure(messageOf(error));
  };
  useEffect(() => void load(), [workspace.id]);

  const create = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const fields = new FormData(form);
    const chosen = scopeChoices.filter((scope) => fields.getAll('scopes').includes(scope));
    const { data, error } = await api.POST('/workspaces/{workspace_id}/api-keys', {
      params: { path },
      body: { name: String(fields.get('name')), scopes: chosen },
    });
    if (!data) return setFailure(messageOf(error));
    setFailure(undefined);
    setCreated({ name: data.name, secret: data.secret });
    setStatus(texts.apiKeys.created(data.name));
    form.reset();
    // The list as the API has it now (the creation's answer has no date): the new key with the others.
    await load();
  };

  const revoke = async (key: ApiKey) => {
    if (!window.confirm(texts.apiKeys.confirmRevoke(key.name))) return;
    const { data, error } = await api.DELETE('/workspaces/{workspace_id}/api-keys/{key_id}', {
      params: { path: { ...path, key_id: key.id } },
    });
    if (!data) return setFailure(messageOf(error));
    setFailure(undefined);
    setKeys((known) => known?.map((each) => (each.id === data.id ? { ...each, revoked_at: data.revoked_at } : each)));
    setStatus(texts.apiKeys.revoked(key.name));
  };

  const opened = keyId === undefined ? undefined : keys?.find((key) => key.id === keyId);
  const revokeButton = (key: ApiKey) =>
    isAdmin &&
    !key.revoked_at && (
      <button type="button" class="danger" aria-label={texts.apiKeys.revoke(key.name)} onClick={() => void revoke(key)}>
        {texts.apiKeys.revokeShort}
      </button>
    );
  const stateOf = (key: ApiKey) =>
    key.revoked_at ? texts.apiKeys.revokedOn(texts.date(key.revoked_at)) : texts.apiKeys.active;

  if (keyId !== undefined)
    return (
      <section aria-labelledby="api-key-heading">
        <p>
          <a href={hrefOf({ workspaceId: workspace.id, screen: 'cles' })}>{texts.apiKeys.all}</a>
        </p>
        {keys === undefined && !failure && <p>{texts.loading}</p>}
        {keys && !opened && <p role="alert">{texts.apiKeys.unknown}</p>}
        {opened && (
          <>
            <h2 id="api-key-heading">{texts.apiKeys.named(opened.name)}</h2>
            <dl class="summary">
              <dt>{texts.apiKeys.scopes}</dt>
              <dd>{opened.scopes.map((scope) => texts.wordsFor(scopeNames, scope)).join(' ; ')}</dd>
              <dt>{texts.apiKeys.createdOn}</dt>
              <dd>{texts.date(opened.created_at)}</dd>
              <dt>{texts.apiKeys.state}</dt>
              <dd>{stateOf(opened)}</dd>
            </dl>
            <div class="actions">{revokeButton(opened)}</div>
            <h3>{texts.apiKeys.changesHeading}</h3>
            <KeyChanges workspace={workspace} apiKey={opened} names={names} />
          </>
        )}
        <p role="status">{status}</p>
        {failure && <p role="alert">{failure}</p>}
      </section>
    );

  return (
    <section aria-labelledby="api-keys-heading">
      <h2 id="api-keys-heading">{texts.apiKeys.heading}</h2>
      {created && (
        <SecretOnce
          label={texts.apiKeys.secretLabel(created.name)}
          value={created.secret}
          onDismiss={() => setCreated(undefined)}
        />
      )}
      {keys === undefined && !failure && <p>{texts.loading}</p>}
      {keys?.length === 0 && <p>{texts.apiKeys.none}</p>}
      {keys && keys.length > 0 && (
        <Table
          caption={texts.apiKeys.heading}
          columns={[texts.apiKeys.name, texts.apiKeys.scopes, texts.apiKeys.createdOn, texts.apiKeys.state]}
          rows={keys.map((key) => ({
            key: key.id,
            cells: [
              <strong>{key.name}</strong>,
              key.scopes.map((scope) => texts.wordsFor(scopeNames, scope)).join(' ; '),
              texts.date(key.created_at),
              stateOf(key),
            ],
            actions: (
              <>
                <RowLink
                  href={hrefOf({ workspaceId: workspace.id, screen: 'cles', item: key.id })}
                  label={texts.apiKeys.showChanges(key.name)}
                  short={texts.apiKeys.changesShort}
                />
                {revokeButton(key)}
              </>
            ),
          }))}
        />
      )}
      {isAdmin && (
        <form onSubmit={(event) => void create(event)}>
          <h3>{texts.apiKeys.create.heading}</h3>
          <label for="api-key-name">{texts.apiKeys.create.name}</label>
          <input id="api-key-name" name="name" required maxLength={200} />
          <fieldset>
            <legend>{texts.apiKeys.create.scopes}</legend>
            {scopeChoices.map((scope) => (
              <label key={scope} class="choice">
                <input type="checkbox" name="scopes" value={scope} defaultChecked={checkedAtFirst(scope)} />
                {scopeNames[scope]}
              </label>
            ))}
          </fieldset>
          <button type="submit">{texts.apiKeys.create.submit}</button>
        </form>
      )}
      <p role="status">{status}</p>
      {failure && <p role="alert">{failure}</p>}
    </section>
  );
}
