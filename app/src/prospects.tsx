import { Fragment, type ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { api, messageOf } from './api';
import { takeArrivalNotice } from './arrival-notice';
import { CandidatesFound, type Candidate } from './candidates-found';
import { ShownName } from './copyable-value';
import { usePages } from './pages';
import { prospectName } from './prospect-names';
import { goTo, hrefOf } from './routes';
import type { components } from './settings-api';
import type { Workspace } from './session';
import { Table } from './table';
import { texts } from './texts';
import { useWorkspaceNames, type WorkspaceNames } from './workspace-names';

type Prospect = components['schemas']['Prospect'];
type FollowUp = components['parameters']['ListFollowUp'][number];
type Sort = components['parameters']['ListSort'];
type Marker = 'email' | 'phone';

const followUpWords: Record<FollowUp, string> = texts.prospects.followUps;
const sortWords: Record<Sort, string> = texts.prospects.sorts;
const followUps = Object.keys(followUpWords) as FollowUp[];
const sorts = Object.keys(sortWords) as Sort[];

/** How many prospects a page of the list asks for (the API's `limit`). */
export const prospectsPageSize = 25;

/**
 * The list's filters, each one value or none (''): a pipeline, a stage, a setter and a closer (a member's id or
 * `none`), a member who is either (« À relancer »), a tag, a follow-up window; and the order.
 */
type Filters = {
  pipeline: string;
  stage: string;
  setter: string;
  closer: string;
  member: string;
  tag: string;
  followUp: FollowUp | '';
  sort: Sort;
};

const noFilters: Filters = {
  pipeline: '',
  stage: '',
  setter: '',
  closer: '',
  member: '',
  tag: '',
  followUp: '',
  sort: '-created_at',
};

/**
 * The filters are kept for the tab (sessionStorage, per workspace), so that a record opened from the list and Back
 * find the list as it was filtered; they go with the session (`forgetSession`). The pages read with « Plus » are
 * read again from the first.
 */
export const filtersKeyPrefix = 'crm-prospects-filters:';

function keptFilters(workspaceId: string): Filters {
  try {
    const kept = JSON.parse(sessionStorage.getItem(`${filtersKeyPrefix}${workspaceId}`) ?? '{}') as Partial<Filters>;
    return { ...noFilters, ...kept };
  } catch {
    return noFilters;
  }
}

/** The list route's query for these filters: each filter given once, or not at all. */
function queryOf(filters: Filters, cursor: string | null) {
  const one = <Value extends string>(value: Value | '') => (value === '' ? undefined : [value]);
  const query = {
    pipeline: one(filters.pipeline),
    stage: one(filters.stage),
    setter_id: one(filters.setter),
    closer_id: one(filters.closer),
    member_id: one(filters.member),
    tag: one(filters.tag),
    follow_up: one(filters.followUp),
    sort: filters.sort,
    limit: String(prospectsPageSize),
    cursor: cursor ?? undefined,
  };
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined)) as Partial<typeof query>;
}

/**
 * « Prospects » (docs/api.md#settings-page): the workspace's prospects a page at a time (« Plus »), filtered by
 * pipeline, stage, setter, closer, tag and follow-up, in the order chosen, each line a link to its « Fiche prospect »;
 * « À relancer » shows the person's own prospects (setter or closer) whose follow-up is due, soonest first. A prospect
 * is also found by e-mail or phone, as the lead webhook would match it, and a candidate by e-mail (`ProspectSearch`). A
 * prospect erased from its record leaves for this screen, which says so once.
 */
export function Prospects({ workspace }: { workspace: Workspace }) {
  const names = useWorkspaceNames(workspace);
  const [filters, setFilters] = useState(() => keptFilters(workspace.id));
  // What the screen left said on leaving for this one (a prospect erased), shown once.
  const [arrival] = useState(takeArrivalNotice);

  const choose = (next: Filters) => {
    sessionStorage.setItem(`${filtersKeyPrefix}${workspace.id}`, JSON.stringify(next));
    setFilters(next);
  };
  const change = (changed: Partial<Filters>) => choose({ ...filters, ...changed });

  const list = usePages<Prospect>(
    async (cursor) => {
      const { data, error } = await api.GET('/workspaces/{workspace_id}/prospects', {
        params: { path: { workspace_id: workspace.id }, query: queryOf(filters, cursor) },
      });
      const nextCursor = data && 'next_cursor' in data ? data.next_cursor : null;
      return { page: data && { items: data.prospects, next_cursor: nextCursor }, error };
    },
    `${workspace.id} ${JSON.stringify(filters)}`,
  );

  const preset = () =>
    choose({ ...noFilters, member: workspace.member_id, followUp: 'due', sort: 'next_follow_up_at' });
  const filtered = JSON.stringify({ ...filters, sort: noFilters.sort }) !== JSON.stringify(noFilters);

  return (
    <section aria-labelledby="prospects-heading">
      <h2 id="prospects-heading">{texts.prospects.heading}</h2>
      {arrival && <p role="status">{arrival}</p>}
      <ProspectSearch workspace={workspace} />
      <h3>{texts.prospects.listHeading}</h3>
      <div class="actions">
        {/* A session kept from before the sign-in named the member has none: the preset waits for the next sign-in. */}
        {workspace.member_id && (
          <button type="button" aria-describedby="prospects-preset-help" onClick={preset}>
            {texts.prospects.preset}
          </button>
        )}
        {filtered && (
          <button type="button" class="secondary" onClick={() => choose({ ...noFilters, sort: filters.sort })}>
            {texts.prospects.clear}
          </button>
        )}
      </div>
      <p id="prospects-preset-help" class="hint">
        {texts.prospects.presetHelp}
      </p>
      {names.ready ? <FilterForm filters={filters} names={names} onChange={change} /> : <p>{texts.loading}</p>}
      {(list.items === undefined || !names.ready) && !list.failure && <p>{texts.loading}</p>}
      {list.items?.length === 0 && (
        <p>{list.hasMore ? texts.prospects.noneOnPage : filtered ? texts.prospects.none : texts.prospects.noneYet}</p>
      )}
      {names.ready && list.items && list.items.length > 0 && (
        <Table
          caption={texts.prospects.listHeading}
          columns={[
            texts.prospects.name,
            texts.prospects.email,
            texts.prospects.stage,
            texts.prospects.setter,
            texts.prospects.closer,
            texts.prospects.followUp,
            texts.prospects.tags,
          ]}
          rows={list.items.map((prospect) => ({
            key: prospect.id,
            cells: [
              <a href={hrefOf({ workspaceId: workspace.id, screen: 'prospects', item: prospect.id })}>
                {prospectName(prospect)}
              </a>,
              prospect.email ?? texts.changes.empty,
              <ShownName named={names.stage(prospect.stage_id)} />,
              <ShownName named={names.member(prospect.setter_id)} />,
              <ShownName named={names.member(prospect.closer_id)} />,
              prospect.next_follow_up_at === null ? texts.changes.empty : texts.date(prospect.next_follow_up_at),
              <TagNames prospect={prospect} names={names} />,
            ],
          }))}
        />
      )}
      {list.hasMore && (
        <button type="button" class="secondary" onClick={list.more}>
          {texts.prospects.more}
        </button>
      )}
      {list.failure && <p role="alert">{list.failure}</p>}
    </section>
  );
}

/** A prospect's tags by name, separated by commas; one since deleted in words, its id to copy. */
export function TagNames({ prospect, names }: { prospect: Prospect; names: WorkspaceNames }) {
  if (prospect.tags.length === 0) return <>{texts.changes.empty}</>;
  return (
    <>
      {prospect.tags.map((tag, index) => (
        <Fragment key={tag.id}>
          {index > 0 && ', '}
          <ShownName named={tag.name === null ? names.tag(tag.id) : { text: tag.name }} />
        </Fragment>
      ))}
    </>
  );
}

/**
 * The list's filters, each a select applied as soon as it is chosen: the stages offered are the chosen pipeline's, or
 * every active pipeline's, grouped by pipeline, when none is chosen; choosing another pipeline lets go of a stage not
 * in it.
 */
function FilterForm(props: { filters: Filters; names: WorkspaceNames; onChange: (changed: Partial<Filters>) => void }) {
  const { filters, names, onChange } = props;
  const chosenPipeline = names.pipelines.find((pipeline) => pipeline.id === filters.pipeline);
  const offered = chosenPipeline ? [chosenPipeline] : names.pipelines;
  const members = names.members.map((member) => (
    <option key={member.id} value={member.id}>
      {texts.members.who(member.name, member.email)}
    </option>
  ));
  const choosePipeline = (pipeline: string) => {
    const stays = names.pipelines
      .find((each) => each.id === pipeline)
      ?.stages.some((stage) => stage.id === filters.stage);
    onChange({ pipeline, ...(pipeline === '' || stays ? {} : { stage: '' }) });
  };
  const select = (
    id: string,
    label: string,
    value: string,
    set: (value: string) => void,
    options: ComponentChildren,
  ) => (
    <div class="filter">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => set(event.currentTarget.value)}>
        {options}
      </select>
    </div>
  );

  return (
    <form class="filters" aria-label={texts.prospects.filters} onSubmit={(event) => event.preventDefault()}>
      {select(
        'prospects-pipeline',
        texts.prospects.pipeline,
        filters.pipeline,
        choosePipeline,
        <>
          <option value="">{texts.prospects.allPipelines}</option>
          {names.pipelines.map((pipeline) => (
            <option key={pipeline.id} value={pipeline.id}>
              {pipeline.name}
            </option>
          ))}
        </>,
      )}
      {select(
        'prospects-stage',
        texts.prospects.stage,
        filters.stage,
        (stage) => onChange({ stage }),
        <>
          <option value="">{texts.prospects.allStages}</option>
          {offered.map((pipeline) => (
            <optgroup key={pipeline.id} label={pipeline.name}>
              {pipeline.stages.map((stage) => (
                <option key={stage.id} value={stage.id}>
                  {stage.name}
                </option>
              ))}
            </optgroup>
          ))}
        </>,
      )}
      {select(
        'prospects-setter',
        texts.prospects.setter,
        filters.setter,
        (setter) => onChange({ setter }),
        <>
          <option value="">{texts.prospects.anyone}</option>
          <option value="none">{texts.prospects.noOne}</option>
          {members}
        </>,
      )}
      {select(
        'prospects-closer',
        texts.prospects.closer,
        filters.closer,
        (closer) => onChange({ closer }),
        <>
          <option value="">{texts.prospects.anyone}</option>
          <option value="none">{texts.prospects.noOne}</option>
          {members}
        </>,
      )}
      {select(
        'prospects-member',
        texts.prospects.member,
        filters.member,
        (member) => onChange({ member }),
        <>
          <option value="">{texts.prospects.anyone}</option>
          {members}
        </>,
      )}
      {select(
        'prospects-tag',
        texts.prospects.tag,
        filters.tag,
        (tag) => onChange({ tag }),
        <>
          <option value="">{texts.prospects.allTags}</option>
          {names.tags.map((tag) => (
            <option key={tag.id} value={tag.id}>
              {tag.name}
            </option>
          ))}
        </>,
      )}
      {select(
        'prospects-follow-up',
        texts.prospects.followUp,
        filters.followUp,
        (followUp) => onChange({ followUp: followUp as FollowUp | '' }),
        <>
          <option value="">{texts.prospects.anyFollowUp}</option>
          {followUps.map((window) => (
            <option key={window} value={window}>
              {followUpWords[window]}
            </option>
          ))}
        </>,
      )}
      {select(
        'prospects-sort',
        texts.prospects.sort,
        filters.sort,
        (sort) => onChange({ sort: sort as Sort }),
        sorts.map((sort) => (
          <option key={sort} value={sort}>
            {sortWords[sort]}
          </option>
        )),
      )}
    </form>
  );
}

/** What a search found: the prospect (none: the words for none) and, for an e-mail, the address's candidates. */
type Found = { prospect: Prospect | undefined; candidates: Candidate[] };

/**
 * A prospect found by e-mail or phone, as the lead webhook would match it, and, by e-mail, the address's candidates
 * (docs/api.md#erasure-export-and-retention): with no candidate, the prospect's record opened at its own address, or
 * the words for none; with candidates, they are listed here beside a link to the prospect's record, so that neither
 * hides the other. A phone finds no candidate (the API looks them up by e-mail only). A refusal of the candidates'
 * look-up is shown beside the prospect found, rather than leaving for its record.
 */
function ProspectSearch({ workspace }: { workspace: Workspace }) {
  const [found, setFound] = useState<Found>();
  const [status, setStatus] = useState<string>();
  const [failure, setFailure] = useState<string>();

  const find = async (event: SubmitEvent) => {
    event.preventDefault();
    const fields = new FormData(event.currentTarget as HTMLFormElement);
    const marker = fields.get('marker') === 'phone' ? 'phone' : 'email';
    const value = String(fields.get('value'));
    const query: Partial<Record<Marker, string>> = { [marker]: value };
    const path = { workspace_id: workspace.id };
    const [prospects, candidates] = await Promise.all([
      api.GET('/workspaces/{workspace_id}/prospects', { params: { path, query } }),
      marker === 'email'
        ? api.GET('/workspaces/{workspace_id}/candidates', { params: { path, query: { email: value } } })
        : undefined,
    ]);
    setStatus(undefined);
    if (!prospects.data) return setFailure(messageOf(prospects.error));
    const refused = candidates !== undefined && !candidates.data;
    setFailure(refused ? messageOf(candidates.error) : undefined);
    const next = { prospect: prospects.data.prospects[0], candidates: candidates?.data?.candidates ?? [] };
    if (next.prospect && next.candidates.length === 0 && !refused)
      return goTo({ workspaceId: workspace.id, screen: 'prospects', item: next.prospect.id });
    setFound(next);
  };

  const erased = (candidate: Candidate) => {
    setFound(
      (before) => before && { ...before, candidates: before.candidates.filter((each) => each.id !== candidate.id) },
    );
    setStatus(texts.rights.candidateErased);
  };

  return (
    <>
      <form class="search find" onSubmit={(event) => void find(event)}>
        <h3>{texts.prospects.findHeading}</h3>
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
        <input id="prospect-value" name="value" required onInput={() => setFound(undefined)} />
        <button type="submit">{texts.prospect.find}</button>
      </form>
      {failure && <p role="alert">{failure}</p>}
      {found && !found.prospect && <p role="status">{texts.prospect.none}</p>}
      {found?.prospect && (
        <p>
          <a href={hrefOf({ workspaceId: workspace.id, screen: 'prospects', item: found.prospect.id })}>
            {texts.candidates.openProspect(prospectName(found.prospect))}
          </a>
        </p>
      )}
      {found && found.candidates.length > 0 && (
        <CandidatesFound workspace={workspace} candidates={found.candidates} onErased={erased} />
      )}
      <p role="status">{status}</p>
    </>
  );
}
