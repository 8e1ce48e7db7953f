import { useEffect, useRef, useState } from 'preact/hooks';
import { api, messageOf } from './api';
import { ShownName } from './copyable-value';
import { usePages } from './pages';
import { hrefOf } from './routes';
import type { components } from './settings-api';
import type { Workspace } from './session';
import { Table } from './table';
import { texts } from './texts';
import { useWorkspaceNames, type WorkspaceNames } from './workspace-names';
import { RowLink } from './row-link';

type Call = components['schemas']['WebhookCallPage']['calls'][number];
type CallDocument = components['schemas']['WebhookCallDocument'];
type Replay = components['schemas']['WebhookReplay'];

const routeNames: Record<Call['route'], string> = texts.webhookCalls.route;
const placementWords: Readonly<Record<string, string>> = texts.webhookCalls.placement;

/** The outcomes the page has words for: `created` and `existing` by the webhook that answered (typed by the API). */
const outcomeWords: Readonly<Record<string, string | Record<Call['route'], string>>> = texts.webhookCalls.outcomes;

/**
 * A call's outcome in words. The API types it as any string: a code the page has no words for (one added since, or
 * the bare status of an answer kept before outcomes were) is shown as sent.
 */
const outcomeOf = (call: Call): string => {
  const words = Object.hasOwn(outcomeWords, call.outcome) ? outcomeWords[call.outcome] : undefined;
  if (words === undefined) return call.outcome;
  return typeof words === 'string' ? words : words[call.route];
};

/** A body as a person reads it: the text kept as is (`{ raw }`), JSON fields laid out one a line. */
const bodyText = (body: NonNullable<CallDocument['body']>): string =>
  typeof body.raw === 'string' && Object.keys(body).length === 1 ? body.raw : JSON.stringify(body, null, 2);

/** The webhook's answer to a replay: its JSON laid out one field a line, a text answer as it came. */
const answerText = (body: unknown): string => (typeof body === 'string' ? body : JSON.stringify(body, null, 2));

/** The API replays only a body kept whole: none is kept for a success, and one cut at 64 KB is not replayed. */
const canReplay = (shown: CallDocument) => shown.body !== null && !shown.call.body_truncated;

/**
 * « Appels du webhook » (admin): the journal of the webhooks' calls, newest first, a page at a time, every call or
 * the failed ones only, one a row; a call has its own address (`…/appels/<call id>`), which shows its kept body, and
 * « Rejouer » runs that body again, showing the webhook's answer and the new call (the journal read again lists it).
 */
export function WebhookCalls({ workspace, callId }: { workspace: Workspace; callId: string | undefined }) {
  const [failedOnly, setFailedOnly] = useState(false);
  const [opened, setOpened] = useState<CallDocument>();
  const [replay, setReplay] = useState<Replay>();
  const [status, setStatus] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const path = { workspace_id: workspace.id };

  const journal = usePages<Call>(async (cursor) => {
    const { data, error } = await api.GET('/workspaces/{workspace_id}/webhook/calls', {
      params: { path, query: { failed: failedOnly ? 'true' : 'false', ...(cursor === null ? {} : { cursor }) } },
    });
    return { page: data && { items: data.calls, next_cursor: data.next_cursor }, error };
  }, `${workspace.id} ${failedOnly}`);

  useEffect(() => {
    setOpened(undefined);
    setReplay(undefined);
    setStatus(undefined);
    setFailure(undefined);
    if (callId === undefined) return;
    void api
      .GET('/workspaces/{workspace_id}/webhook/calls/{call_id}', { params: { path: { ...path, call_id: callId } } })
      .then(({ data, error }) => (data ? setOpened(data) : setFailure(messageOf(error))));
  }, [workspace.id, callId]);

  const replayOpened = async (shown: CallDocument) => {
    const { data, error } = await api.POST('/workspaces/{workspace_id}/webhook/calls/{call_id}/replay', {
      params: { path: { ...path, call_id: shown.call.id } },
    });
    if (!data) return setFailure(messageOf(error));
    setFailure(undefined);
    setReplay(data);
    // Said once the journal read again lists the new call, so that the list, back to it, already has it.
    await journal.reload();
    setStatus(texts.webhookCalls.replayed);
  };

  const callHref = (id: string) => hrefOf({ workspaceId: workspace.id, screen: 'appels', item: id });

  if (callId !== undefined)
    return (
      <section aria-labelledby="webhook-calls-heading">
        <h2 id="webhook-calls-heading">{texts.webhookCalls.heading}</h2>
        <p>
          <a href={hrefOf({ workspaceId: workspace.id, screen: 'appels' })}>{texts.webhookCalls.all}</a>
        </p>
        {opened === undefined && !failure && <p>{texts.loading}</p>}
        {opened && (
          <OpenedCall
            workspace={workspace}
            shown={opened}
            replay={replay}
            newCallHref={replay?.call ? callHref(replay.call.id) : undefined}
            onReplay={canReplay(opened) ? replayOpened : undefined}
          />
        )}
        <p role="status">{status}</p>
        {failure && <p role="alert">{failure}</p>}
      </section>
    );

  return (
    <section aria-labelledby="webhook-calls-heading">
      <h2 id="webhook-calls-heading">{texts.webhookCalls.heading}</h2>
      <div class="choice">
        <input
          id="webhook-calls-failed"
          type="checkbox"
          checked={failedOnly}
          onChange={(event) => setFailedOnly(event.currentTarget.checked)}
        />
        <label for="webhook-calls-failed">{texts.webhookCalls.failedOnly}</label>
      </div>
      {journal.items === undefined && !journal.failure && <p>{texts.loading}</p>}
      {journal.items?.length === 0 && <p>{failedOnly ? texts.webhookCalls.noneFailed : texts.webhookCalls.none}</p>}
      {journal.items && journal.items.length > 0 && (
        <Table
          caption={texts.webhookCalls.heading}
          columns={[
            texts.webhookCalls.at,
            texts.webhookCalls.routeLabel,
            texts.webhookCalls.status,
            texts.webhookCalls.outcome,
          ]}
          rows={journal.items.map((call) => ({
            key: call.id,
            cells: [texts.date(call.at), routeNames[call.route], call.status, outcomeText(call)],
            actions: (
              <RowLink
                href={callHref(call.id)}
                label={texts.webhookCalls.open(texts.date(call.at))}
                short={texts.webhookCalls.openShort}
              />
            ),
          }))}
        />
      )}
      {journal.hasMore && (
        <button type="button" class="secondary" onClick={journal.more}>
          {texts.webhookCalls.more}
        </button>
      )}
      {journal.failure && <p role="alert">{journal.failure}</p>}
    </section>
  );
}

/** A call's outcome in words, and how many calls it stands for past a minute's 10th refusal. */
const outcomeText = (call: Call) =>
  call.count > 1 ? texts.webhookCalls.counted(outcomeOf(call), call.count) : outcomeOf(call);

/**
 * Where a lead call left its prospect: the stage by name, and how it was chosen in words; a placement the page has no
 * words for is shown as sent.
 */
function placementOf(call: Call, names: WorkspaceNames) {
  const how = call.placement === null ? undefined : texts.wordsFor(placementWords, call.placement);
  if (call.stage_id === null) return how ?? texts.changes.empty;
  const stage = <ShownName named={names.stage(call.stage_id)} />;
  return how === undefined ? (
    stage
  ) : (
    <>
      {stage} ({how})
    </>
  );
}

/** A call's date, route, status and outcome in words; for a lead, where it left its prospect and a link to it. */
function CallFacts({ call, names, workspace }: { call: Call; names: WorkspaceNames; workspace: Workspace }) {
  return (
    <dl class="summary">
      <dt>{texts.webhookCalls.at}</dt>
      <dd>{texts.date(call.at)}</dd>
      <dt>{texts.webhookCalls.routeLabel}</dt>
      <dd>{routeNames[call.route]}</dd>
      <dt>{texts.webhookCalls.status}</dt>
      <dd>{call.status}</dd>
      <dt>{texts.webhookCalls.outcome}</dt>
      <dd>{outcomeText(call)}</dd>
      {(call.placement !== null || call.stage_id !== null) && (
        <>
          <dt>{texts.webhookCalls.placementLabel}</dt>
          <dd>{placementOf(call, names)}</dd>
        </>
      )}
      {call.route === 'ingest-lead' && call.record_id !== null && (
        <>
          <dt>{texts.webhookCalls.record}</dt>
          <dd>
            <a href={hrefOf({ workspaceId: workspace.id, screen: 'prospects', item: call.record_id })}>
              {texts.webhookCalls.openRecord}
            </a>
          </dd>
        </>
      )}
      {call.warnings.length > 0 && (
        <>
          <dt>{texts.webhookCalls.warnings}</dt>
          <dd>
            <ul>
              {call.warnings.map((warning) => (
                <li key={warning}>{warning}</li>
              ))}
            </ul>
          </dd>
        </>
      )}
    </dl>
  );
}

/**
 * A refused call's message as the webhook answered it, first on its page: an error summary (the GOV.UK Design System's
 * pattern), the refusal in the sender's words before the facts. A call journaled before the journal kept messages
 * has its outcome in words instead.
 */
function RefusalSummary({ call }: { call: Call }) {
  if (call.status < 400) return null;
  return (
    <div class="error-summary" aria-labelledby="refusal-heading">
      <h4 id="refusal-heading">{texts.webhookCalls.refusalHeading}</h4>
      <p>{call.message ?? outcomeOf(call)}</p>
    </div>
  );
}

/**
 * The opened call, its kept body, and « Rejouer » when the API can replay it; the replay's answer below it. The
 * heading takes the focus when a call is opened, so a keyboard or screen-reader user lands on what they asked for.
 */
function OpenedCall(props: {
  workspace: Workspace;
  shown: CallDocument;
  replay?: Replay | undefined;
  /** The address of the call the replay made, once it has one. */
  newCallHref?: string | undefined;
  onReplay?: (shown: CallDocument) => Promise<void>;
}) {
  const { shown, replay, workspace } = props;
  const names = useWorkspaceNames(workspace);
  const heading = useRef<HTMLHeadingElement>(null);
  const [replaying, setReplaying] = useState(false);
  useEffect(() => heading.current?.focus(), [shown.call.id]);

  // One click, one replay: the button waits for the answer, so a double click does not run the body twice.
  const replayShown = async (run: (shown: CallDocument) => Promise<void>) => {
    setReplaying(true);
    await run(shown);
    setReplaying(false);
  };

  return (
    <article aria-labelledby="opened-call-heading">
      <h3 id="opened-call-heading" ref={heading} tabIndex={-1}>
        {texts.webhookCalls.opened(texts.date(shown.call.at))}
      </h3>
      <RefusalSummary call={shown.call} />
      {names.ready ? <CallFacts call={shown.call} names={names} workspace={workspace} /> : <p>{texts.loading}</p>}
      <h4>{texts.webhookCalls.body}</h4>
      {shown.body === null ? <p>{texts.webhookCalls.noBody}</p> : <pre>{bodyText(shown.body)}</pre>}
      {shown.call.body_truncated && <p>{texts.webhookCalls.truncated}</p>}
      {props.onReplay && (
        <button type="button" disabled={replaying} onClick={() => props.onReplay && void replayShown(props.onReplay)}>
          {texts.webhookCalls.replay}
        </button>
      )}
      {replay && (
        <>
          <h4>{texts.webhookCalls.replayAnswer(replay.response.status)}</h4>
          <pre>{answerText(replay.response.body)}</pre>
          {replay.call && (
            <>
              <h4>{texts.webhookCalls.newCall}</h4>
              <CallFacts call={replay.call} names={names} workspace={workspace} />
              {props.newCallHref && (
                <p>
                  <a href={props.newCallHref}>{texts.webhookCalls.openNew}</a>
                </p>
              )}
            </>
          )}
        </>
      )}
    </article>
  );
}
