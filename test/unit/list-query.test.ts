import fc from 'fast-check';
import { InvalidInputError, UnknownReferenceError, type DomainError } from '../../lib/domain/model';
import { listQueryDigest } from '../../lib/domain/prospect-list/list-cursor';
import { parseListQuery, type ListParameters } from '../../lib/domain/prospect-list/read-list-query';
import { ids, listConfig, parisDays, uuid } from '../support/list-workspace';

/*
 * `GET /prospects` as a list (docs/api.md#lists-of-prospects): its parameters read into a query, every refusal naming
 * its parameter, 400s before 422s; and the digest a cursor is bound to.
 */

const now = new Date('2026-11-22T10:00:00.000Z');
const parse = (parameters: ListParameters, at = now) => parseListQuery(parameters, listConfig, parisDays, at);

/** The refusal parsing throws: its class and the parameter `details.field` names. */
function refusalOf(parameters: ListParameters): { status: 400 | 422; field: unknown } {
  try {
    parse(parameters);
  } catch (error) {
    const status = error instanceof InvalidInputError ? 400 : error instanceof UnknownReferenceError ? 422 : undefined;
    if (status === undefined) throw error;
    const details = (error as DomainError).details as { field: unknown; message: unknown };
    expect(details.message).toBe((error as DomainError).message);
    return { status, field: details.field };
  }
  throw new Error(`no refusal for ${JSON.stringify(parameters)}`);
}
const badRequest = (field: string) => ({ status: 400, field });
const unprocessable = (field: string) => ({ status: 422, field });

describe('parseListQuery: what each parameter reads', () => {
  it('lists everything, newest first, 50 a page, when nothing is given', () => {
    expect(parse({})).toEqual({ ranges: {}, fields: [], sort: '-created_at', limit: 50 });
  });

  it('reads `id` as UUIDs in lower case, each once; up to 100 of them', () => {
    expect(parse({ id: [ids.prospect.toUpperCase(), ids.prospect, uuid(42)] }).ids).toEqual([ids.prospect, uuid(42)]);
    const hundred = Array.from({ length: 100 }, (_, n) => uuid(1000 + n));
    expect(parse({ id: hundred }).ids).toHaveLength(100);
    expect(refusalOf({ id: [...hundred, uuid(2000)] })).toEqual(badRequest('id'));
    expect(refusalOf({ id: [ids.prospect, 'p-1'] })).toEqual(badRequest('id'));
  });

  it('reads `pipeline` by id or by name as names compare, inactive pipelines too', () => {
    expect(parse({ pipeline: [` ${ids.sales.toUpperCase()} `, '  coaching ', 'ARCHIVES 2025'] }).pipelineIds).toEqual([
      ids.sales,
      ids.coaching,
      ids.archived,
    ]);
    expect(parse({ pipeline: ['Ventes', ids.sales] }).pipelineIds).toEqual([ids.sales]);
    expect(refusalOf({ pipeline: ['Recrutement'] })).toEqual(unprocessable('pipeline'));
    expect(refusalOf({ pipeline: ['  '] })).toEqual(badRequest('pipeline'));
  });

  it('reads `stage` by the id of a stage of any pipeline, inactive ones too', () => {
    expect(parse({ stage: [ids.call, ids.archivedNew.toUpperCase()] }).stageIds).toEqual([ids.call, ids.archivedNew]);
  });

  it('reads a `stage` name within the pipeline given when exactly one is, else within the default pipeline', () => {
    expect(parse({ stage: ['nouveau'] }).stageIds).toEqual([ids.new]);
    expect(parse({ pipeline: ['Coaching'], stage: ['NOUVEAU'] }).stageIds).toEqual([ids.coachingNew]);
    expect(parse({ pipeline: ['Coaching', 'coaching'], stage: ['Nouveau'] }).stageIds).toEqual([ids.coachingNew]);
    expect(parse({ pipeline: ['Coaching', 'Ventes'], stage: ['Nouveau'] }).stageIds).toEqual([ids.new]);
    expect(refusalOf({ pipeline: ['Coaching', 'Ventes'], stage: ['Appel'] })).toEqual(unprocessable('stage'));
    expect(refusalOf({ stage: ['Appel'] })).toEqual(unprocessable('stage'));
    expect(parse({ pipeline: ['Coaching'], stage: ['Appel'] }).stageIds).toEqual([ids.call]);
    expect(refusalOf({ pipeline: ['Coaching'], stage: ['Relance'] })).toEqual(unprocessable('stage'));
    const withoutDefault = {
      ...listConfig,
      salesPipelines: listConfig.salesPipelines.map((pipeline) => ({ ...pipeline, is_default: false })),
    };
    expect(() => parseListQuery({ stage: ['Nouveau'] }, withoutDefault, parisDays, now)).toThrow(UnknownReferenceError);
    expect(refusalOf({ stage: [''] })).toEqual(badRequest('stage'));
  });

  it('reads `setter_id` and `closer_id` as member ids or `none`, removed members included', () => {
    expect(parse({ setter_id: [ids.alice.toUpperCase(), 'none', ids.gone] }).setters).toEqual({
      memberIds: [ids.alice, ids.gone],
      none: true,
    });
    expect(parse({ closer_id: ['none'] }).closers).toEqual({ memberIds: [], none: true });
    for (const parameter of ['setter_id', 'closer_id']) {
      expect(refusalOf({ [parameter]: ['Alice'] })).toEqual(badRequest(parameter));
      expect(refusalOf({ [parameter]: ['NONE'] })).toEqual(badRequest(parameter));
      expect(refusalOf({ [parameter]: [uuid(99)] })).toEqual(unprocessable(parameter));
    }
  });

  it('reads `member_id` as member ids only', () => {
    expect(parse({ member_id: [ids.alice, ids.bob, ids.alice] }).memberIds).toEqual([ids.alice, ids.bob]);
    expect(refusalOf({ member_id: ['none'] })).toEqual(badRequest('member_id'));
    expect(refusalOf({ member_id: [uuid(99)] })).toEqual(unprocessable('member_id'));
  });

  it('reads `tag` by id or by name', () => {
    expect(parse({ tag: ['vip', ids.cold, ' VIP '] }).tagIds).toEqual([ids.vip, ids.cold]);
    expect(refusalOf({ tag: ['Chaud'] })).toEqual(unprocessable('tag'));
    expect(refusalOf({ tag: [''] })).toEqual(badRequest('tag'));
  });

  it("reads `follow_up` as named windows, with the workspace's day they were asked on", () => {
    expect(parse({ follow_up: ['overdue', 'none', 'overdue'] }).followUp).toEqual({
      windows: ['overdue', 'none'],
      day: { start: '2026-11-21T23:00:00.000Z', end: '2026-11-22T23:00:00.000Z' },
    });
    for (const window of ['today', 'due', 'any'])
      expect(parse({ follow_up: [window] }).followUp?.windows).toEqual([window]);
    for (const wrong of ['Today', 'late', '', 'overdue,none']) {
      expect(refusalOf({ follow_up: [wrong] })).toEqual(badRequest('follow_up'));
    }
  });

  it('reads the workday of a DST change as 23 h in spring and 25 h in autumn', () => {
    const spring = parse({ follow_up: ['today'] }, new Date('2026-03-29T12:00:00Z')).followUp?.day;
    expect(spring).toEqual({ start: '2026-03-28T23:00:00.000Z', end: '2026-03-29T22:00:00.000Z' });
    const autumn = parse({ follow_up: ['today'] }, new Date('2026-10-25T12:00:00Z')).followUp?.day;
    expect(autumn).toEqual({ start: '2026-10-24T22:00:00.000Z', end: '2026-10-25T23:00:00.000Z' });
  });

  it('reads range bounds as instants: a timestamp with its zone, or a date alone at its first instant in the workspace', () => {
    const query = parse({
      created_from: ['2026-01-15'],
      created_to: ['2026-07-15'],
      updated_from: ['2026-11-01T09:30:00+01:00'],
      updated_to: ['2026-11-02t10:00z'],
      follow_up_from: ['2026-03-29'],
      follow_up_to: ['2026-10-26'],
    });
    expect(query.ranges).toEqual({
      created_at: { from: '2026-01-14T23:00:00.000Z', to: '2026-07-14T22:00:00.000Z' },
      updated_at: { from: '2026-11-01T08:30:00.000Z', to: '2026-11-02T10:00:00.000Z' },
      next_follow_up_at: { from: '2026-03-28T23:00:00.000Z', to: '2026-10-25T23:00:00.000Z' },
    });
    expect(parse({ updated_to: ['2026-11-02T10:00:00.123456Z'] }).ranges).toEqual({
      updated_at: { to: '2026-11-02T10:00:00.123Z' },
    });
  });

  it.each([
    ['a timestamp without its zone', '2026-11-02T10:00:00'],
    ['a date that does not exist', '2026-02-30'],
    ['a time that does not exist', '2026-11-02T24:00:00Z'],
    ['a French date', '02/11/2026'],
    ['an epoch', '1793270400'],
    ['nothing', ''],
  ])('refuses %s as a range bound, naming the parameter', (_case, text) => {
    for (const parameter of [
      'created_from',
      'created_to',
      'updated_from',
      'updated_to',
      'follow_up_from',
      'follow_up_to',
    ]) {
      expect(refusalOf({ [parameter]: [text] })).toEqual(badRequest(parameter));
    }
  });

  it('reads `sort`, `limit` and `cursor`', () => {
    for (const sort of ['-created_at', 'created_at', '-updated_at', 'updated_at', 'next_follow_up_at'] as const) {
      expect(parse({ sort: [sort] }).sort).toBe(sort);
    }
    expect(refusalOf({ sort: ['-next_follow_up_at'] })).toEqual(badRequest('sort'));
    expect(refusalOf({ sort: ['name'] })).toEqual(badRequest('sort'));
    expect(parse({ limit: ['1'] }).limit).toBe(1);
    expect(parse({ limit: ['100'] }).limit).toBe(100);
    for (const limit of ['0', '101', '+5', '5.0', '1e1', '', ' 5']) {
      expect(refusalOf({ limit: [limit] })).toEqual(badRequest('limit'));
    }
    expect(parse({ cursor: ['eyJiIjoiIn0'] }).cursor).toBe('eyJiIjoiIn0');
    expect(refusalOf({ cursor: [''] })).toEqual(badRequest('cursor'));
  });

  it('takes a parameter without values as not given', () => {
    expect(parse({ tag: [], limit: [] })).toEqual(parse({}));
  });
});

describe('parseListQuery: `fields.<key>`, each value read as its type reads it', () => {
  const valuesOf = (parameters: ListParameters) => parse(parameters).fields.map((filter) => filter.values);

  it('reads a number as French forms write it', () => {
    expect(valuesOf({ 'fields.budget': ['1 500,50', '1500.5', '2\u202f000'] })).toEqual([[1500.5, 2000]]);
    expect(refusalOf({ 'fields.budget': ['mille'] })).toEqual(badRequest('fields.budget'));
  });

  it('reads a date as `YYYY-MM-DD`', () => {
    expect(valuesOf({ 'fields.start': ['25/12/2026', '2027-01-05'] })).toEqual([['2026-12-25', '2027-01-05']]);
    expect(refusalOf({ 'fields.start': ['30/02/2026'] })).toEqual(badRequest('fields.start'));
  });

  it('reads a boolean in French or English', () => {
    expect(valuesOf({ 'fields.newsletter': ['Oui'] })).toEqual([[true]]);
    expect(valuesOf({ 'fields.newsletter': ['non', 'true'] })).toEqual([[false, true]]);
    expect(refusalOf({ 'fields.newsletter': ['peut-être'] })).toEqual(badRequest('fields.newsletter'));
  });

  it('reads a text as names compare', () => {
    expect(valuesOf({ 'fields.city': ['  Paris ', 'PARIS', 'Saint-Étienne'] })).toEqual([['paris', 'saint-étienne']]);
  });

  it('reads a choice as its option, however it is cased', () => {
    expect(valuesOf({ 'fields.offer': ['annuel', 'MENSUEL'] })).toEqual([['Annuel', 'Mensuel']]);
    expect(refusalOf({ 'fields.offer': ['Hebdo'] })).toEqual(badRequest('fields.offer'));
  });

  it('reads a multi_choice value as the options it names, the values given together', () => {
    expect(valuesOf({ 'fields.interests': ['mindset, vente', 'COACHING'] })).toEqual([
      ['Vente', 'Mindset', 'Coaching'],
    ]);
    expect(refusalOf({ 'fields.interests': ['Vente,Yoga'] })).toEqual(badRequest('fields.interests'));
  });

  it('refuses a blank value of any type', () => {
    for (const key of ['budget', 'start', 'newsletter', 'city', 'offer', 'interests']) {
      expect(refusalOf({ [`fields.${key}`]: [' '] })).toEqual(badRequest(`fields.${key}`));
    }
  });

  it("keeps each filter with its field's key, type and options", () => {
    expect(parse({ 'fields.offer': ['Annuel'], 'fields.budget': ['10'] }).fields).toEqual([
      { definition: { key: 'budget', type: 'number', options: null }, values: [10] },
      { definition: { key: 'offer', type: 'choice', options: ['Annuel', 'Mensuel'] }, values: ['Annuel'] },
    ]);
  });

  it('refuses a key the workspace has no field for, a deleted field’s included, with a 422 naming it', () => {
    expect(refusalOf({ 'fields.colour': ['bleu'] })).toEqual(unprocessable('fields.colour'));
    expect(refusalOf({ 'fields.old': ['x'] })).toEqual(unprocessable('fields.old'));
    expect(refusalOf({ 'fields.Budget': ['10'] })).toEqual(unprocessable('fields.Budget'));
  });
});

describe('parseListQuery: names, counts and the order of refusals', () => {
  it('refuses a parameter it does not read, naming it', () => {
    expect(refusalOf({ tags: ['VIP'] })).toEqual(badRequest('tags'));
    expect(refusalOf({ stage: ['Nouveau'], offset: ['10'] })).toEqual(badRequest('offset'));
    expect(refusalOf({ fields: ['budget'] })).toEqual(badRequest('fields'));
  });

  it.each([
    'follow_up_from',
    'follow_up_to',
    'created_from',
    'created_to',
    'updated_from',
    'updated_to',
    'sort',
    'limit',
    'cursor',
  ])('refuses `%s` given twice, naming it', (parameter) => {
    expect(refusalOf({ [parameter]: ['a', 'a'] })).toEqual(badRequest(parameter));
  });

  it('takes 20 values in all across the repeatable filters, `id` apart, and names the parameter that goes over', () => {
    const twenty = {
      pipeline: ['Ventes', 'Coaching'],
      stage: ['Nouveau'],
      setter_id: [ids.alice, 'none'],
      closer_id: [ids.bob],
      member_id: [ids.gone],
      tag: ['VIP', 'Froid', 'vip'],
      follow_up: ['overdue', 'today', 'due', 'none', 'any'],
      'fields.budget': ['1', '2'],
      'fields.offer': ['Annuel', 'Mensuel', 'annuel'],
      id: Array.from({ length: 100 }, (_, n) => uuid(1000 + n)),
    };
    expect(() => parse(twenty)).not.toThrow();
    expect(refusalOf({ ...twenty, 'fields.offer': ['Annuel', 'Mensuel', 'annuel', 'x'] })).toEqual(
      badRequest('fields.offer'),
    );
    expect(refusalOf({ ...twenty, follow_up: [...twenty.follow_up, 'any'] })).toEqual(badRequest('fields.offer'));
    expect(refusalOf({ tag: Array.from({ length: 21 }, () => 'VIP') })).toEqual(badRequest('tag'));
    expect(
      refusalOf({ stage: Array.from({ length: 15 }, () => 'Nouveau'), tag: Array.from({ length: 6 }, () => 'VIP') }),
    ).toEqual(badRequest('tag'));
  });

  it('answers every 400 before any 422', () => {
    expect(refusalOf({ pipeline: ['Inconnu'], limit: ['0'] })).toEqual(badRequest('limit'));
    expect(refusalOf({ tag: ['Inconnu'], 'fields.budget': ['beaucoup'] })).toEqual(badRequest('fields.budget'));
    expect(refusalOf({ 'fields.colour': ['bleu'], created_from: ['hier'] })).toEqual(badRequest('created_from'));
    expect(refusalOf({ setter_id: [uuid(99)], cursor: [''] })).toEqual(badRequest('cursor'));
    expect(refusalOf({ tag: ['Inconnu'], unknown: ['1'] })).toEqual(badRequest('unknown'));
  });

  it('names the first of several faults in one order, whatever the order of the query string', () => {
    expect(refusalOf({ tag: ['Inconnu'], pipeline: ['Inconnu'] })).toEqual(unprocessable('pipeline'));
    expect(refusalOf({ sort: ['x'], id: ['x'] })).toEqual(badRequest('id'));
    expect(refusalOf({ zzz: ['1'], aaa: ['1'] })).toEqual(badRequest('aaa'));
  });
});

describe('listQueryDigest', () => {
  const workspaceId = 'ws-list';
  const digestOf = (parameters: ListParameters, workspace = workspaceId) =>
    listQueryDigest(parse(parameters), workspace);

  it('is short and URL-safe', () => {
    expect(digestOf({})).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('binds the query as read: a name and its id, a date and its instant, are one query', () => {
    expect(digestOf({ tag: ['vip'] })).toBe(digestOf({ tag: [ids.vip] }));
    expect(digestOf({ stage: ['Nouveau'] })).toBe(digestOf({ stage: [ids.new.toUpperCase()] }));
    expect(digestOf({ created_from: ['2026-01-15'] })).toBe(digestOf({ created_from: ['2026-01-15T00:00:00+01:00'] }));
    expect(digestOf({ 'fields.budget': ['1 500,50'] })).toBe(digestOf({ 'fields.budget': ['1500.5'] }));
    expect(digestOf({ limit: ['50'] })).toBe(digestOf({}));
  });

  it('leaves out the cursor, and the day `follow_up` was read on', () => {
    expect(digestOf({ cursor: ['abc'], tag: ['VIP'] })).toBe(digestOf({ tag: ['VIP'] }));
    const tomorrow = new Date(now.getTime() + 24 * 3600 * 1000);
    expect(listQueryDigest(parse({ follow_up: ['today'] }, tomorrow), workspaceId)).toBe(
      digestOf({ follow_up: ['today'] }),
    );
  });

  it('differs for every other query, limit and workspace included', () => {
    const variants: ListParameters[] = [
      {},
      { limit: ['49'] },
      { sort: ['created_at'] },
      { sort: ['next_follow_up_at'] },
      { id: [ids.prospect] },
      { pipeline: ['Ventes'] },
      { stage: ['Nouveau'] },
      { setter_id: [ids.alice] },
      { setter_id: ['none'] },
      { setter_id: [ids.alice, 'none'] },
      { closer_id: [ids.alice] },
      { member_id: [ids.alice] },
      { tag: ['VIP'] },
      { tag: ['VIP', 'Froid'] },
      { follow_up: ['today'] },
      { follow_up: ['due'] },
      { created_from: ['2026-01-15'] },
      { created_to: ['2026-01-15'] },
      { updated_from: ['2026-01-15'] },
      { follow_up_from: ['2026-01-15'] },
      { 'fields.budget': ['10'] },
      { 'fields.budget': ['11'] },
      { 'fields.city': ['10'] },
      { 'fields.offer': ['Annuel'] },
    ];
    const digests = variants.map((parameters) => digestOf(parameters));
    expect(new Set(digests).size).toBe(variants.length);
    expect(digestOf({}, 'ws-other')).not.toBe(digestOf({}));
  });

  it('is the same whatever the order of the parameters and of their values', () => {
    const filters: [string, string[]][] = [
      ['id', [ids.prospect, uuid(42), uuid(43)]],
      ['pipeline', ['Ventes', 'Coaching']],
      ['setter_id', [ids.alice, 'none', ids.bob]],
      ['closer_id', [ids.gone, 'none']],
      ['member_id', [ids.alice, ids.bob]],
      ['tag', ['VIP', 'Froid']],
      ['follow_up', ['overdue', 'none', 'today']],
      ['fields.budget', ['10', '1 500,50']],
      ['fields.interests', ['Vente', 'Coaching,Mindset']],
      ['fields.newsletter', ['oui', 'non']],
      ['created_from', ['2026-01-15']],
      ['sort', ['updated_at']],
    ];
    const reference = digestOf(Object.fromEntries(filters));
    const permutation = <T>(items: T[]) =>
      fc.shuffledSubarray(items, { minLength: items.length, maxLength: items.length });
    const permuted = fc
      .tuple(...filters.map(([name, values]) => permutation(values).map((shuffled) => [name, shuffled] as const)))
      .chain(permutation);
    fc.assert(
      fc.property(permuted, (entries) => {
        expect(digestOf(Object.fromEntries(entries))).toBe(reference);
      }),
      { numRuns: 200 },
    );
  });
});
