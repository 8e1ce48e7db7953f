import type { Prospect } from '../../lib/domain/model';
import { followUpSelection, matchesListQuery } from '../../lib/domain/prospect-list/list-filter';
import { parseListQuery, type ListParameters } from '../../lib/domain/prospect-list/read-list-query';
import { ids, listConfig as config, parisDays, uuid } from '../support/list-workspace';

/*
 * The prospects a list shows (docs/api.md#lists-of-prospects): each filter on a prospect as stored, any of a
 * parameter's values, every parameter together; the follow-up windows of the workspace's day, DST days included; and
 * the orders of the pages.
 */

const now = new Date('2026-11-22T10:00:00.000Z');

const aProspect = (overrides: Partial<Prospect> = {}): Prospect => ({
  id: uuid(100),
  workspace_id: 'ws-match',
  pipeline_id: ids.sales,
  stage_id: ids.new,
  setter_id: null,
  closer_id: null,
  next_follow_up_at: null,
  first_name: 'Léa',
  last_name: null,
  email: null,
  phone: null,
  social_url: null,
  source: null,
  version: 1,
  created_at: '2026-11-01T09:00:00.000Z',
  updated_at: '2026-11-10T09:00:00.000Z',
  ...overrides,
});

/** Whether the list `parameters` asks for at `at` shows `prospect`. */
const shows = (parameters: ListParameters, prospect: Prospect, at = now) =>
  matchesListQuery(prospect, parseListQuery(parameters, config, parisDays, at), at);

describe('matchesListQuery: each filter', () => {
  it('shows every prospect when nothing is asked', () => {
    expect(shows({}, aProspect())).toBe(true);
    expect(
      shows({}, aProspect({ pipeline_id: null, stage_id: null, next_follow_up_at: '2020-01-01T00:00:00.000Z' })),
    ).toBe(true);
  });

  it('`id`: the prospects named, any of them', () => {
    expect(shows({ id: [uuid(100).toUpperCase(), uuid(101)] }, aProspect())).toBe(true);
    expect(shows({ id: [uuid(101)] }, aProspect())).toBe(false);
  });

  it('`pipeline` and `stage`: any of them; a prospect on no board is in none', () => {
    expect(shows({ pipeline: ['Coaching', 'Ventes'] }, aProspect())).toBe(true);
    expect(shows({ pipeline: ['Coaching'] }, aProspect())).toBe(false);
    expect(shows({ pipeline: ['Ventes'] }, aProspect({ pipeline_id: null, stage_id: null }))).toBe(false);
    expect(shows({ stage: ['Relance', 'Nouveau'] }, aProspect())).toBe(true);
    expect(shows({ stage: ['Relance'] }, aProspect())).toBe(false);
    expect(shows({ stage: ['Nouveau'] }, aProspect({ pipeline_id: null, stage_id: null }))).toBe(false);
  });

  it('`setter_id` and `closer_id`: the members named, `none` the prospects without one', () => {
    const withSetter = aProspect({ setter_id: ids.alice });
    expect(shows({ setter_id: [ids.alice] }, withSetter)).toBe(true);
    expect(shows({ setter_id: [ids.bob] }, withSetter)).toBe(false);
    expect(shows({ setter_id: ['none'] }, withSetter)).toBe(false);
    expect(shows({ setter_id: ['none'] }, aProspect())).toBe(true);
    expect(shows({ setter_id: [ids.bob, 'none'] }, aProspect())).toBe(true);
    expect(shows({ setter_id: [ids.bob, 'none'] }, withSetter)).toBe(false);
    expect(shows({ closer_id: [ids.alice] }, withSetter)).toBe(false);
    expect(shows({ closer_id: ['none'] }, withSetter)).toBe(true);
    expect(shows({ closer_id: [ids.bob] }, aProspect({ closer_id: ids.bob }))).toBe(true);
  });

  it('`member_id`: the setter or the closer is one of the members named', () => {
    expect(shows({ member_id: [ids.alice] }, aProspect({ setter_id: ids.alice }))).toBe(true);
    expect(shows({ member_id: [ids.alice] }, aProspect({ closer_id: ids.alice }))).toBe(true);
    expect(shows({ member_id: [ids.alice] }, aProspect({ setter_id: ids.bob, closer_id: ids.bob }))).toBe(false);
    expect(shows({ member_id: [ids.bob, ids.alice] }, aProspect({ closer_id: ids.bob }))).toBe(true);
    expect(shows({ member_id: [ids.alice] }, aProspect())).toBe(false);
  });

  it('`tag`: the prospect carries any of them', () => {
    const tagged = aProspect({ tag_ids: new Set([ids.cold]) });
    expect(shows({ tag: ['VIP', 'Froid'] }, tagged)).toBe(true);
    expect(shows({ tag: ['VIP'] }, tagged)).toBe(false);
    expect(shows({ tag: ['VIP'] }, aProspect())).toBe(false);
  });

  it('`created_*` and `updated_*`: from included, to excluded', () => {
    const prospect = aProspect({ created_at: '2026-11-01T09:00:00.000Z', updated_at: '2026-11-10T09:00:00.000Z' });
    expect(shows({ created_from: ['2026-11-01T09:00:00Z'] }, prospect)).toBe(true);
    expect(shows({ created_from: ['2026-11-01T09:00:00.001Z'] }, prospect)).toBe(false);
    expect(shows({ created_to: ['2026-11-01T09:00:00Z'] }, prospect)).toBe(false);
    expect(shows({ created_to: ['2026-11-01T10:00:00.001+01:00'] }, prospect)).toBe(true);
    // A date alone starts at midnight in Paris: 2026-11-01T23:00Z is already the 2nd there.
    expect(shows({ created_from: ['2026-11-01'], created_to: ['2026-11-02'] }, prospect)).toBe(true);
    expect(shows({ created_from: ['2026-11-02'] }, aProspect({ created_at: '2026-11-01T23:00:00.000Z' }))).toBe(true);
    expect(shows({ updated_from: ['2026-11-10'], updated_to: ['2026-11-11'] }, prospect)).toBe(true);
    expect(shows({ updated_from: ['2026-11-11'] }, prospect)).toBe(false);
  });

  it('every parameter together, any value within each', () => {
    const prospect = aProspect({
      setter_id: ids.alice,
      tag_ids: new Set([ids.vip]),
      next_follow_up_at: '2026-11-22T08:00:00.000Z',
      fields: { budget: 1500.5 },
    });
    const all: ListParameters = {
      pipeline: ['Ventes'],
      stage: [ids.new, ids.followUp],
      setter_id: [ids.alice],
      closer_id: ['none'],
      member_id: [ids.alice],
      tag: ['VIP', 'Froid'],
      follow_up: ['overdue'],
      created_from: ['2026-11-01'],
      'fields.budget': ['1 500,50', '10'],
    };
    expect(shows(all, prospect)).toBe(true);
    for (const [name, other] of Object.entries({
      pipeline: ['Coaching'],
      stage: [ids.followUp],
      setter_id: [ids.bob],
      closer_id: [ids.alice],
      member_id: [ids.bob],
      tag: ['Froid'],
      follow_up: ['none'],
      created_from: ['2026-11-02'],
      'fields.budget': ['10'],
    })) {
      expect([name, shows({ ...all, [name]: other }, prospect)]).toEqual([name, false]);
    }
  });
});

describe('matchesListQuery: `fields.<key>`, as the type reads the value asked and the one stored', () => {
  const withFields = (fields: Prospect['fields']) => aProspect({ fields });

  it('number: `1 500,50` finds 1500.5', () => {
    expect(shows({ 'fields.budget': ['1 500,50'] }, withFields({ budget: 1500.5 }))).toBe(true);
    expect(shows({ 'fields.budget': ['1500'] }, withFields({ budget: 1500.5 }))).toBe(false);
  });

  it('date: `25/12/2026` finds 2026-12-25', () => {
    expect(shows({ 'fields.start': ['25/12/2026'] }, withFields({ start: '2026-12-25' }))).toBe(true);
    expect(shows({ 'fields.start': ['24/12/2026'] }, withFields({ start: '2026-12-25' }))).toBe(false);
  });

  it('boolean: `Oui` finds true, not false', () => {
    expect(shows({ 'fields.newsletter': ['Oui'] }, withFields({ newsletter: true }))).toBe(true);
    expect(shows({ 'fields.newsletter': ['Oui'] }, withFields({ newsletter: false }))).toBe(false);
    expect(shows({ 'fields.newsletter': ['Oui', 'non'] }, withFields({ newsletter: false }))).toBe(true);
  });

  it('text: compared as names', () => {
    expect(shows({ 'fields.city': [' SAINT-ÉTIENNE'] }, withFields({ city: 'Saint-Étienne' }))).toBe(true);
    expect(shows({ 'fields.city': ['Saint-E\u0301tienne'] }, withFields({ city: 'saint-étienne ' }))).toBe(true);
    expect(shows({ 'fields.city': ['Saint'] }, withFields({ city: 'Saint-Étienne' }))).toBe(false);
  });

  it('choice: an option in another case, a value stored before the option was re-cased', () => {
    expect(shows({ 'fields.offer': ['ANNUEL'] }, withFields({ offer: 'Annuel' }))).toBe(true);
    expect(shows({ 'fields.offer': ['Annuel'] }, withFields({ offer: 'annuel' }))).toBe(true);
    expect(shows({ 'fields.offer': ['Mensuel'] }, withFields({ offer: 'Annuel' }))).toBe(false);
  });

  it('multi_choice: the prospect carries any of the options asked', () => {
    const prospect = withFields({ interests: ['Vente', 'Mindset'] });
    expect(shows({ 'fields.interests': ['coaching,mindset'] }, prospect)).toBe(true);
    expect(shows({ 'fields.interests': ['Coaching', 'Vente'] }, prospect)).toBe(true);
    expect(shows({ 'fields.interests': ['Coaching'] }, prospect)).toBe(false);
    expect(shows({ 'fields.interests': ['Vente'] }, withFields({ interests: [] }))).toBe(false);
  });

  it('a prospect without a value for the field, or with one its type no longer reads, is not shown', () => {
    expect(shows({ 'fields.budget': ['10'] }, aProspect())).toBe(false);
    expect(shows({ 'fields.budget': ['10'] }, withFields({ city: '10' }))).toBe(false);
    expect(shows({ 'fields.offer': ['Annuel'] }, withFields({ offer: 'Hebdo' }))).toBe(false);
  });

  it('several fields: each of them', () => {
    const prospect = withFields({ budget: 10, offer: 'Annuel' });
    expect(shows({ 'fields.budget': ['10'], 'fields.offer': ['annuel'] }, prospect)).toBe(true);
    expect(shows({ 'fields.budget': ['10'], 'fields.offer': ['mensuel'] }, prospect)).toBe(false);
  });
});

describe('follow-up windows, in the workspace’s day', () => {
  const dueAt = (instant: string | null) => aProspect({ next_follow_up_at: instant });

  it('`overdue` before now, `today` within the day, `due` before its end, `any` with one, `none` without', () => {
    // 2026-11-22 in Paris: 2026-11-21T23:00Z to 2026-11-22T23:00Z; now is 10:00Z.
    const cases: [string | null, string[]][] = [
      ['2026-11-21T22:59:59.999Z', ['overdue', 'due', 'any']],
      ['2026-11-21T23:00:00.000Z', ['overdue', 'today', 'due', 'any']],
      ['2026-11-22T09:59:59.999Z', ['overdue', 'today', 'due', 'any']],
      ['2026-11-22T10:00:00.000Z', ['today', 'due', 'any']],
      ['2026-11-22T22:59:59.999Z', ['today', 'due', 'any']],
      ['2026-11-22T23:00:00.000Z', ['any']],
      [null, ['none']],
    ];
    for (const [instant, windows] of cases) {
      const shown = ['overdue', 'today', 'due', 'none', 'any'].filter((window) =>
        shows({ follow_up: [window] }, dueAt(instant)),
      );
      expect([instant, shown]).toEqual([instant, windows]);
    }
  });

  it.each([
    ['spring', '2026-03-29T12:00:00Z', '2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z', 23],
    ['autumn', '2026-10-25T12:00:00Z', '2026-10-24T22:00:00.000Z', '2026-10-25T23:00:00.000Z', 25],
  ])('`today` on the %s DST day spans the day in Paris (%s)', (_season, at, start, end, hours) => {
    const moment = new Date(at);
    expect((Date.parse(end) - Date.parse(start)) / 3_600_000).toBe(hours);
    const before = new Date(Date.parse(start) - 1).toISOString();
    const last = new Date(Date.parse(end) - 1).toISOString();
    expect(shows({ follow_up: ['today'] }, dueAt(before), moment)).toBe(false);
    expect(shows({ follow_up: ['today'] }, dueAt(start), moment)).toBe(true);
    expect(shows({ follow_up: ['today'] }, dueAt(last), moment)).toBe(true);
    expect(shows({ follow_up: ['today'] }, dueAt(end), moment)).toBe(false);
    expect(shows({ follow_up: ['due'] }, dueAt(last), moment)).toBe(true);
    expect(shows({ follow_up: ['due'] }, dueAt(end), moment)).toBe(false);
    expect(shows({ follow_up: ['due'] }, dueAt('2026-01-01T00:00:00.000Z'), moment)).toBe(true);
  });

  it('several windows: any of them', () => {
    expect(shows({ follow_up: ['overdue', 'none'] }, dueAt(null))).toBe(true);
    expect(shows({ follow_up: ['overdue', 'none'] }, dueAt('2026-11-01T00:00:00.000Z'))).toBe(true);
    expect(shows({ follow_up: ['overdue', 'none'] }, dueAt('2026-11-22T12:00:00.000Z'))).toBe(false);
  });

  it('`follow_up_from` and `follow_up_to` keep the follow-ups within them, so none without one', () => {
    const range = { follow_up_from: ['2026-11-22'], follow_up_to: ['2026-11-23'] };
    expect(shows(range, dueAt('2026-11-21T23:00:00.000Z'))).toBe(true);
    expect(shows(range, dueAt('2026-11-22T23:00:00.000Z'))).toBe(false);
    expect(shows(range, dueAt(null))).toBe(false);
    expect(shows({ ...range, follow_up: ['none'] }, dueAt(null))).toBe(false);
    expect(shows({ ...range, follow_up: ['overdue'] }, dueAt('2026-11-22T09:00:00.000Z'))).toBe(true);
    expect(shows({ ...range, follow_up: ['overdue'] }, dueAt('2026-11-22T11:00:00.000Z'))).toBe(false);
  });

  it('selects the instants as ranges in order and apart, for the follow-up index to read', () => {
    const selection = (parameters: ListParameters) =>
      followUpSelection(parseListQuery(parameters, config, parisDays, now), now);
    expect(selection({})).toEqual({ ranges: [{}], withoutFollowUp: true });
    expect(selection({ follow_up: ['none'] })).toEqual({ ranges: [], withoutFollowUp: true });
    expect(selection({ follow_up: ['overdue', 'today'] })).toEqual({
      ranges: [{ to: '2026-11-22T23:00:00.000Z' }],
      withoutFollowUp: false,
    });
    expect(selection({ follow_up: ['today', 'overdue', 'none'] })).toEqual({
      ranges: [{ to: '2026-11-22T23:00:00.000Z' }],
      withoutFollowUp: true,
    });
    expect(selection({ follow_up: ['any', 'today'] })).toEqual({ ranges: [{}], withoutFollowUp: false });
    expect(selection({ follow_up: ['today'], follow_up_from: ['2026-11-22T12:00:00Z'] })).toEqual({
      ranges: [{ from: '2026-11-22T12:00:00.000Z', to: '2026-11-22T23:00:00.000Z' }],
      withoutFollowUp: false,
    });
    expect(selection({ follow_up: ['overdue', 'none'], follow_up_from: ['2026-11-23'] })).toEqual({
      ranges: [],
      withoutFollowUp: false,
    });
    expect(selection({ follow_up_to: ['2026-11-23'] })).toEqual({
      ranges: [{ to: '2026-11-22T23:00:00.000Z' }],
      withoutFollowUp: false,
    });
  });
});
