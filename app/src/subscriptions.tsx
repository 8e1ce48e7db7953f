import { useEffect, useState } from 'preact/hooks';
import { api, messageOf } from './api';
import { usePages } from './pages';
import { goTo, hrefOf } from './routes';
import { SecretOnce } from './secret-once';
import type { components } from './settings-api';
import type { Workspace } from './session';
import { Table } from './table';
import { texts } from './texts';
import { RowLink } from './row-link';

type Subscription = components['schemas']['SubscriptionList']['subscriptions'][number];
type Delivery = components['schemas']['Delivery'];
type EventType = NonNullable<components['schemas']['NewSubscription']['events']>[number];

/**
 * The event types offered as checkboxes: those of the OpenAPI enum (`NewSubscription.events` in the generated types).
 * `satisfies` refuses a type the API does not accept, and `eventChoices` fails the type check when the API accepts one
 * this list lacks (its element type collapses to `never`), so the checkboxes cannot drift from the API after
 * `npm run app:types`.
 */
const eventTypes = [
  'prospect.created',
  'prospect.updated',
  'prospect.note_added',
  'prospect.tag_added',
  'prospect.tag_removed',
  'prospect.follow_up_due',
  'candidate.created',
  'candidate.application_received',
  'prospect.erased',
  'candidate.erased',
] as const satisfies readonly EventType[];
type Unlisted = Exclude<EventType, (typeof eventTypes)[number]>;
const eventChoices: readonly ([Unlisted] extends [never] ? EventType : never)[] = eventTypes;
const eventNames: Record<EventType, string> = texts.subscriptions.event;

/**
 * The workspace's subscriptions to outbound events (admin only, docs/api.md#settings-page), one a row: create one (its
 * signing secret shown once), turn it off and on; at its own address (`…/abonnements/<subscription id>`), change its
 * event types (a type added since it was created among them), rotate its secret and delete it after confirming, read
 * its deliveries and send one again.
 */
export function Subscriptions({
  workspace,
  subscriptionId,
}: {
  workspace: Workspace;
  subscriptionId: string | undefined;
}) {
  const [subscriptions, setSubscriptions] = useState<Subscription[]>();
  const [secret, setSecret] = useState<{ url: string; value: string }>();
  const [status, setStatus] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const path = { workspace_id: workspace.id };

  const load = async () => {
    const { data, error } = await api.GET('/workspaces/{workspace_id}/subscriptions', { params: { path } });
    if (data) setSubscriptions(data.subscriptions);
    else setFailure(messageOf(error));
  };
  useEffect(() => void load(), [workspace.id]);

  /** After a change the API accepted: what happened, and no earlier refusal left on screen. */
  const done = (what: string) => {
    setFailure(undefined);
    setStatus(what);
  };

  const create = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const fields = new FormData(form);
    const chosen = eventChoices.filter((type) => fields.getAll('events').includes(type));
    const { data, error } = await api.POST('/workspaces/{workspace_id}/subscriptions', {
      params: { path },
      body: { url: String(fields.get('url')), events: chosen },
    });
    if (!data) return setFailure(messageOf(error));
    setSecret({ url: data.url, value: data.secret });
    done(texts.subscriptions.created(data.url));
    form.reset();
    // The list as the API has it now (the creation's answer has neither date nor state).
    await load();
  };

  const setActive = async (subscription: Subscription, active: boolean) => {
    const { data, error } = await api.PATCH('/workspaces/{workspace_id}/subscriptions/{subscription_id}', {
      params: { path: { ...path, subscription_id: subscription.id } },
      body: { active },
    });
    if (!data) return setFailure(messageOf(error));
    setSubscriptions((known) =>
      known?.map((each) => (each.id === data.id ? { ...each, active: data.active, events: data.events } : each)),
    );
    done((data.active ? texts.subscriptions.enabled : texts.subscriptions.disabled)(subscription.url));
  };

  /** The types checked replace the subscription's list (`PATCH { events }`); none checked, the API's refusal. */
  const changeEvents = async (event: SubmitEvent, subscription: Subscription) => {
    event.preventDefault();
    const fields = new FormData(event.currentTarget as HTMLFormElement);
    const chosen = eventChoices.filter((type) => fields.getAll('events').includes(type));
    const { data, error } = await api.PATCH('/workspaces/{workspace_id}/subscriptions/{subscription_id}', {
      params: { path: { ...path, subscription_id: subscription.id } },
      body: { events: chosen },
    });
    if (!data) return setFailure(messageOf(error));
    setSubscriptions((known) =>
      known?.map((each) => (each.id === data.id ? { ...each, active: data.active, events: data.events } : each)),
    );
    done(texts.subscriptions.change.saved(subscription.url));
  };

  const rotate = async (subscription: Subscription) => {
    if (!window.confirm(texts.subscriptions.confirmRotate(subscription.url))) return;
    const { data, error } = await api.POST('/workspaces/{workspace_id}/subscriptions/{subscription_id}/secret', {
      params: { path: { ...path, subscription_id: subscription.id } },
    });
    if (!data) return setFailure(messageOf(error));
    setSecret({ url: subscription.url, value: data.secret });
    done(texts.subscriptions.rotated(subscription.url));
  };

  const remove = async (subscription: Subscription) => {
    if (!window.confirm(texts.subscriptions.confirmRemove(subscription.url))) return;
    const { data, error } = await api.DELETE('/workspaces/{workspace_id}/subscriptions/{subscription_id}', {
      params: { path: { ...path, subscription_id: subscription.id } },
    });
    if (!data) return setFailure(messageOf(error));
    setSubscriptions((known) => known?.filter((each) => each.id !== data.id));
    done(texts.subscriptions.removed(subscription.url));
    goTo({ workspaceId: workspace.id, screen: 'abonnements' });
  };

  const shownSecret = secret && (
    <SecretOnce
      label={texts.subscriptions.secretLabel(secret.url)}
      value={secret.value}
      onDismiss={() => setSecret(undefined)}
    />
  );
  const toggle = (subscription: Subscription) => (
    <button
      type="button"
      class="secondary"
      aria-label={(subscription.active ? texts.subscriptions.disable : texts.subscriptions.enable)(subscription.url)}
      onClick={() => void setActive(subscription, !subscription.active)}
    >
      {subscription.active ? texts.subscriptions.disableShort : texts.subscriptions.enableShort}
    </button>
  );
  const eventsOf = (subscription: Subscription) =>
    subscription.events.map((type) => texts.wordsFor(eventNames, type)).join(' ; ');
  const stateOf = (subscription: Subscription) =>
    subscription.active ? texts.subscriptions.active : texts.subscriptions.inactive;
  const listHref = hrefOf({ workspaceId: workspace.id, screen: 'abonnements' });

  if (subscriptionId !== undefined) {
    const opened = subscriptions?.find((each) => each.id === subscriptionId);
    return (
      <section aria-labelledby="subscription-heading">
        <p>
          <a href={listHref}>{texts.subscriptions.all}</a>
        </p>
        {shownSecret}
        {subscriptions === undefined && !failure && <p>{texts.loading}</p>}
        {subscriptions && !opened && <p role="alert">{texts.subscriptions.unknown}</p>}
        {opened && (
          <>
            <h2 id="subscription-heading">{texts.subscriptions.named(opened.url)}</h2>
            <dl class="summary">
              <dt>{texts.subscriptions.events}</dt>
              <dd>{eventsOf(opened)}</dd>
              <dt>{texts.subscriptions.createdOn}</dt>
              <dd>{texts.date(opened.created_at)}</dd>
              <dt>{texts.subscriptions.state}</dt>
              <dd>{stateOf(opened)}</dd>
            </dl>
            <div class="actions">
              {toggle(opened)}
              <button
                type="button"
                class="secondary"
                aria-label={texts.subscriptions.rotate(opened.url)}
                onClick={() => void rotate(opened)}
              >
                {texts.subscriptions.rotateShort}
              </button>
              <button
                type="button"
                class="danger"
                aria-label={texts.subscriptions.remove(opened.url)}
                onClick={() => void remove(opened)}
              >
                {texts.subscriptions.removeShort}
              </button>
            </div>
            {/* Keyed by the stored list: once saved, the boxes are checked as the API answered. */}
            <form key={opened.events.join(',')} onSubmit={(event) => void changeEvents(event, opened)}>
              <fieldset aria-describedby="subscription-events-help">
                <legend>{texts.subscriptions.change.events}</legend>
                {eventChoices.map((type) => (
                  <label key={type} class="choice">
                    <input type="checkbox" name="events" value={type} defaultChecked={opened.events.includes(type)} />
                    {eventNames[type]}
                  </label>
                ))}
              </fieldset>
              <p id="subscription-events-help">{texts.subscriptions.change.help}</p>
              <button type="submit">{texts.subscriptions.change.submit}</button>
            </form>
            <h3>{texts.subscriptions.showDeliveries(opened.url)}</h3>
            <DeliveryList workspace={workspace} subscription={opened} />
          </>
        )}
        <p role="status">{status}</p>
        {failure && <p role="alert">{failure}</p>}
      </section>
    );
  }

  return (
    <section aria-labelledby="subscriptions-heading">
      <h2 id="subscriptions-heading">{texts.subscriptions.heading}</h2>
      {shownSecret}
      {subscriptions === undefined && !failure && <p>{texts.loading}</p>}
      {subscriptions?.length === 0 && <p>{texts.subscriptions.none}</p>}
      {subscriptions && subscriptions.length > 0 && (
        <Table
          caption={texts.subscriptions.heading}
          columns={[
            texts.subscriptions.url,
            texts.subscriptions.events,
            texts.subscriptions.createdOn,
            texts.subscriptions.state,
          ]}
          rows={subscriptions.map((subscription) => ({
            key: subscription.id,
            cells: [
              <strong class="url">{subscription.url}</strong>,
              eventsOf(subscription),
              texts.date(subscription.created_at),
              stateOf(subscription),
            ],
            actions: (
              <>
                <RowLink
                  href={hrefOf({ workspaceId: workspace.id, screen: 'abonnements', item: subscription.id })}
                  label={texts.subscriptions.open(subscription.url)}
                  short={texts.subscriptions.openShort}
                />
                {toggle(subscription)}
              </>
            ),
          }))}
        />
      )}
      <form onSubmit={(event) => void create(event)}>
        <h3>{texts.subscriptions.create.heading}</h3>
        <label for="subscription-url">{texts.subscriptions.create.url}</label>
        <input
          id="subscription-url"
          name="url"
          type="url"
          required
          maxLength={2048}
          aria-describedby="subscription-url-help"
        />
        <p id="subscription-url-help">{texts.subscriptions.create.urlHelp}</p>
        <fieldset>
          <legend>{texts.subscriptions.create.events}</legend>
          {eventChoices.map((type) => (
            <label key={type} class="choice">
              {/* Every type checked at first: the API's own default when `events` is absent. */}
              <input type="checkbox" name="events" value={type} defaultChecked />
              {eventNames[type]}
            </label>
          ))}
        </fieldset>
        <button type="submit">{texts.subscriptions.create.submit}</button>
      </form>
      <p role="status">{status}</p>
      {failure && <p role="alert">{failure}</p>}
    </section>
  );
}

/**
 * The deliveries of an opened subscription, newest first, a page at a time (`usePages`), read again on demand; each
 * can be sent again: the API queues it (202) and the delivery shows its outcome once the signing functions have sent
 * it and the list is read again.
 */
function DeliveryList({ workspace, subscription }: { workspace: Workspace; subscription: Subscription }) {
  const [status, setStatus] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const deliveries = usePages<Delivery>(async (cursor) => {
    const { data, error } = await api.GET('/workspaces/{workspace_id}/subscriptions/{subscription_id}/deliveries', {
      params: {
        path: { workspace_id: workspace.id, subscription_id: subscription.id },
        query: cursor === null ? {} : { cursor },
      },
    });
    return { page: data && { items: data.deliveries, next_cursor: data.next_cursor }, error };
  }, subscription.id);

  const redeliver = async (delivery: Delivery) => {
    const { data, error } = await api.POST('/workspaces/{workspace_id}/deliveries/{delivery_id}/redeliver', {
      params: { path: { workspace_id: workspace.id, delivery_id: delivery.id } },
    });
    if (!data) return setFailure(messageOf(error));
    setFailure(undefined);
    setStatus(texts.subscriptions.deliveries.queued);
  };

  const words = texts.subscriptions.deliveries;
  return (
    <>
      {deliveries.items === undefined && !deliveries.failure && <p>{texts.loading}</p>}
      {deliveries.items?.length === 0 && <p>{words.none}</p>}
      {deliveries.items && deliveries.items.length > 0 && (
        <Table
          caption={texts.subscriptions.showDeliveries(subscription.url)}
          columns={[words.createdOn, words.type, words.state, words.attempts, words.lastAnswer, words.nextAttempt]}
          rows={deliveries.items.map((delivery) => ({
            key: delivery.id,
            cells: [
              texts.date(delivery.created_at),
              texts.wordsFor(eventNames, delivery.type),
              words.status[delivery.status],
              delivery.attempts,
              delivery.last_status_code ?? delivery.last_error ?? words.noAnswer,
              delivery.next_attempt_at ? texts.date(delivery.next_attempt_at) : words.noAnswer,
            ],
            actions: (
              <button
                type="button"
                class="secondary"
                aria-label={words.redeliverOf(
                  texts.wordsFor(eventNames, delivery.type),
                  texts.date(delivery.created_at),
                )}
                onClick={() => void redeliver(delivery)}
              >
                {words.redeliver}
              </button>
            ),
          }))}
        />
      )}
      {deliveries.hasMore && (
        <button type="button" onClick={deliveries.more}>
          {texts.changes.more}
        </button>
      )}
      <button type="button" class="secondary" onClick={() => void deliveries.reload()}>
        {words.reload}
      </button>
      {deliveries.failure && <p role="alert">{deliveries.failure}</p>}
      <p role="status">{status}</p>
      {failure && <p role="alert">{failure}</p>}
    </>
  );
}
