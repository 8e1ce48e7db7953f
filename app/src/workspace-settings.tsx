import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, messageOf } from './api';
import { formatWallClock } from './dates';
import type { components } from './settings-api';
import type { Workspace } from './session';
import { texts } from './texts';

type WorkspaceDetail = components['schemas']['WorkspaceDetail'];
type WorkspaceChange = components['schemas']['WorkspaceChange'];

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
 * The retention as typed: empty is null (kept until erased); a number, even one the API refuses (0, 1.5), is sent
 * for the API to refuse in its own words; anything else cannot be sent (`undefined`).
 */
function typedRetention(text: string): number | null | undefined {
  if (text === '') return null;
  return /^-?\d+(?:[.,]\d+)?$/.test(text) ? Number(text.replace(',', '.')) : undefined;
}

/**
 * « Espace » (docs/api.md#workspaces): the workspace as `GET /workspaces/{w}` answers it, every member reading its
 * name and its time zone, with the date and time it is there now, so that the zone's name says what it means, and its
 * retention. An admin changes the time zone (`PATCH /workspaces/{w}`): any IANA name may be typed, the browser's own
 * suggested; and the retention, in months, empty for « until erased ». The API's refusal is shown as it words it.
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

  /** One PATCH of the settings; the workspace it answers replaces the one shown, and `saved` says what changed. */
  const save = async (body: WorkspaceChange, saved: (changed: WorkspaceDetail) => string) => {
    setStatus(undefined);
    const { data, error } = await api.PATCH('/workspaces/{workspace_id}', { params: { path }, body });
    if (!data) return setFailure(messageOf(error));
    setFailure(undefined);
    setDetail(data);
    setStatus(saved(data));
  };

  const typed = (event: SubmitEvent, name: string) => {
    event.preventDefault();
    return String(new FormData(event.currentTarget as HTMLFormElement).get(name)).trim();
  };

  const changeZone = (event: SubmitEvent) =>
    save({ time_zone: typed(event, 'time_zone') }, (changed) => words.saved(changed.time_zone));

  const changeRetention = async (event: SubmitEvent) => {
    const months = typedRetention(typed(event, 'retention_months'));
    if (months === undefined) {
      setStatus(undefined);
      return setFailure(words.changeRetention.notANumber);
    }
    await save({ retention_months: months }, (changed) => words.retentionSaved(changed.retention_months));
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
            <dt>{words.retention}</dt>
            <dd>{words.retentionShown(detail.retention_months)}</dd>
          </dl>
          {workspace.role === 'admin' && (
            // Keyed by the zone: the field shows the one saved, once the API has answered it.
            <form key={detail.time_zone} onSubmit={(event) => void changeZone(event)}>
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
          {workspace.role === 'admin' && (
            // Keyed by the retention: the field shows the one saved, once the API has answered it.
            <form key={String(detail.retention_months)} onSubmit={(event) => void changeRetention(event)}>
              <h3>{words.changeRetention.heading}</h3>
              <label for="workspace-retention">{words.changeRetention.months}</label>
              <input
                id="workspace-retention"
                name="retention_months"
                inputMode="numeric"
                autoComplete="off"
                size={5}
                maxLength={10}
                defaultValue={detail.retention_months === null ? '' : String(detail.retention_months)}
                aria-describedby="workspace-retention-help"
              />
              <p id="workspace-retention-help" class="hint">
                {words.changeRetention.help}
              </p>
              <button type="submit">{words.changeRetention.submit}</button>
            </form>
          )}
        </>
      )}
      <p role="status">{status}</p>
      {failure && <p role="alert">{failure}</p>}
    </section>
  );
}
