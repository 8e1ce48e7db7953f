import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, messageOf } from './api';
import { formatWallClock } from './dates';
import type { components } from './settings-api';
import type { Workspace } from './session';
import { texts } from './texts';

type WorkspaceDetail = components['schemas']['WorkspaceDetail'];

/**
 * The names of the time zones this browser's database knows, to suggest as one types, the workspace's own first when
 * the browser lists it under another name. Only suggestions: a name the runtime lists under another
 * (`America/Montreal`, an alias of `America/Toronto`) or not at all (`UTC`) may be typed, and the API, whose database
 * decides, refuses one it does not know in its own words.
 */
function suggestedTimeZones(current: string): string[] {
  const known = Intl.supportedValuesOf('timeZone');
  return known.includes(current) ? known : [current, ...known];
}

/** The time now, read again every `everyMs` so that a clock shown stays right while the screen is open. */
function useNow(everyMs = 15_000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/**
 * « Espace » (docs/api.md#workspaces): the workspace as `GET /workspaces/{w}` answers it, every member reading its
 * name and its time zone, with the date and time it is there now, so that the zone's name says what it means. An
 * admin changes the time zone (`PATCH /workspaces/{w}`): any IANA name may be typed, the browser's own suggested; the
 * API's refusal is shown as it words it.
 */
export function WorkspaceSettings({ workspace }: { workspace: Workspace }) {
  const [detail, setDetail] = useState<WorkspaceDetail>();
  const [status, setStatus] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const now = useNow();
  const path = { workspace_id: workspace.id };
  const words = texts.workspaceSettings;
  const suggested = useMemo(() => (detail ? suggestedTimeZones(detail.time_zone) : []), [detail?.time_zone]);

  useEffect(() => {
    void api.GET('/workspaces/{workspace_id}', { params: { path } }).then(({ data, error }) => {
      if (data) setDetail(data);
      else setFailure(messageOf(error));
    });
  }, [workspace.id]);

  const change = async (event: SubmitEvent) => {
    event.preventDefault();
    const timeZone = String(new FormData(event.currentTarget as HTMLFormElement).get('time_zone')).trim();
    setStatus(undefined);
    const { data, error } = await api.PATCH('/workspaces/{workspace_id}', {
      params: { path },
      body: { time_zone: timeZone },
    });
    if (!data) return setFailure(messageOf(error));
    setFailure(undefined);
    setDetail(data);
    setStatus(words.saved(data.time_zone));
  };

  return (
    <section aria-labelledby="workspace-settings-heading">
      <h2 id="workspace-settings-heading">{words.heading}</h2>
      {detail === undefined && !failure && <p>{texts.loading}</p>}
      {detail && (
        <>
          <dl class="summary">
            <dt>{words.name}</dt>
            <dd>{detail.name}</dd>
            <dt>{words.timeZone}</dt>
            <dd>
              <code>{detail.time_zone}</code>
            </dd>
            <dt>{words.now}</dt>
            <dd>{formatWallClock(now, detail.time_zone) ?? words.unknownNow}</dd>
          </dl>
          {workspace.role === 'admin' && (
            // Keyed by the zone: the field shows the one saved, once the API has answered it.
            <form key={detail.time_zone} onSubmit={(event) => void change(event)}>
              <h3>{words.change.heading}</h3>
              <label for="workspace-time-zone">{words.change.timeZone}</label>
              <input
                id="workspace-time-zone"
                name="time_zone"
                list="workspace-time-zones"
                required
                maxLength={64}
                autoComplete="off"
                spellcheck={false}
                defaultValue={detail.time_zone}
                aria-describedby="workspace-time-zone-help"
              />
              <datalist id="workspace-time-zones">
                {suggested.map((zone) => (
                  <option key={zone} value={zone} />
                ))}
              </datalist>
              <p id="workspace-time-zone-help" class="hint">
                {words.change.help}
              </p>
              <button type="submit">{words.change.submit}</button>
            </form>
          )}
        </>
      )}
      <p role="status">{status}</p>
      {failure && <p role="alert">{failure}</p>}
    </section>
  );
}
