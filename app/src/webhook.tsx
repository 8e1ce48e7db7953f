import { useEffect, useState } from 'preact/hooks';
import { api, messageOf } from './api';
import { CopyableValue } from './copyable-value';
import { SecretOnce } from './secret-once';
import type { components } from './settings-api';
import type { Workspace } from './session';
import { texts } from './texts';

type WebhookDetail = components['schemas']['WebhookDetail'];

/**
 * The workspace's webhook, for an admin (the API refuses every webhook route to a member): its two URLs, whether it is
 * active, its last call; « Générer le webhook » or, after confirmation, « Régénérer le token », the token shown once;
 * enable or disable it.
 */
export function Webhook({ workspace }: { workspace: Workspace }) {
  // undefined: loading; null: none generated yet (the API answers 404).
  const [webhook, setWebhook] = useState<WebhookDetail | null>();
  const [token, setToken] = useState<string>();
  const [status, setStatus] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const path = { workspace_id: workspace.id };

  const load = async () => {
    const { data, error, response } = await api.GET('/workspaces/{workspace_id}/webhook', { params: { path } });
    if (data) return setWebhook(data);
    if (response.status === 404) return setWebhook(null);
    setFailure(messageOf(error));
  };

  useEffect(() => void load(), [workspace.id]);

  const generate = async () => {
    if (webhook && !window.confirm(texts.webhook.confirmRegenerate)) return;
    const { data, error } = await api.POST('/workspaces/{workspace_id}/webhook/token', { params: { path } });
    if (!data) return setFailure(messageOf(error));
    setFailure(undefined);
    setToken(data.token);
    setStatus(webhook ? texts.webhook.regenerated : texts.webhook.generated);
    // The generating answer has no recruitment URL nor state: the webhook as the API now shows it.
    await load();
  };

  const setActive = async (active: boolean) => {
    const { data, error } = await api.PATCH('/workspaces/{workspace_id}/webhook', {
      params: { path },
      body: { active },
    });
    if (!data) return setFailure(messageOf(error));
    setFailure(undefined);
    setWebhook((shown) => shown && { ...shown, ...data });
    setStatus(active ? texts.webhook.enabled : texts.webhook.disabled);
  };

  return (
    <section aria-labelledby="webhook-heading">
      <h2 id="webhook-heading">{texts.webhook.heading}</h2>
      {webhook === undefined && !failure && <p>{texts.loading}</p>}
      {webhook === null && <p>{texts.webhook.none}</p>}
      {webhook && (
        <>
          <CopyableValue label={texts.webhook.leadUrl} value={webhook.url} />
          <CopyableValue label={texts.webhook.recruitmentUrl} value={webhook.recruitment_url} />
          <p>{webhook.active ? texts.webhook.active : texts.webhook.inactive}</p>
          <p>{webhook.last_call_at === null ? texts.webhook.noCall : texts.webhook.lastCall(webhook.last_call_at)}</p>
        </>
      )}
      {token !== undefined && (
        <SecretOnce label={texts.webhook.token} value={token} onDismiss={() => setToken(undefined)} />
      )}
      {webhook !== undefined && (
        <div class="actions">
          <button type="button" onClick={() => void generate()}>
            {webhook ? texts.webhook.regenerate : texts.webhook.generate}
          </button>
          {webhook && (
            <button type="button" onClick={() => void setActive(!webhook.active)}>
              {webhook.active ? texts.webhook.disable : texts.webhook.enable}
            </button>
          )}
        </div>
      )}
      <p role="status">{status}</p>
      {failure && <p role="alert">{failure}</p>}
    </section>
  );
}
