import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { productionDeps } from '../../lib/storage/client';
import { keys } from '../../lib/storage/table-items';
import { startTestApi, type ApiResponse, type TestApi } from '../support/local-api';
import { countRoundTrips, type RoundTripCounter } from '../support/round-trips';
import { useSeededApi, type SeededApi } from '../support/seeded-api';

/**
 * Phone matching end to end (docs/api.md#phone-matching, #workspaces): by default a phone
 * matches only the same string; a workspace that opted in to `e164` matches valid numbers by their
 * E.164 form in its region, others as sent, and keeps the phone as first sent.
 */
const exact = useSeededApi();
const e164 = useSeededApi();
const belgian = useSeededApi();

/**
 * `workspace set` is the admin tool's: the test writes the settings where it would, on the
 * configuration item (the look-up reads them there) and on the endpoint item (the lead webhook's
 * authorizer returns them).
 */
async function setPhoneMatching(world: SeededApi, region?: string): Promise<void> {
  const settings = { ':matching': 'e164', ...(region === undefined ? {} : { ':region': region }) };
  const expression =
    region === undefined ? 'SET phone_matching = :matching' : 'SET phone_matching = :matching, phone_region = :region';
  for (const Key of [keys.workspace(world.ws.workspace_id), keys.endpoint(world.ws.webhook?.endpoint_id as string)]) {
    await world.deps.db.send(
      new UpdateCommand({
        TableName: world.deps.tableName,
        Key,
        UpdateExpression: expression,
        ExpressionAttributeValues: settings,
        ConditionExpression: 'attribute_exists(pk)',
      }),
    );
  }
}

beforeAll(async () => {
  await setPhoneMatching(e164);
  await setPhoneMatching(belgian, 'BE');
});

type LeadAnswer = { status: 'created' | 'existing'; prospect_id: string; warnings: string[] };
const answer = (response: ApiResponse): LeadAnswer => {
  expect(response.status).toBe(200);
  return response.body as LeadAnswer;
};
/** A lead carrying only a phone (and a first name), no e-mail. */
const phoneLead = (world: SeededApi, phone: string, body: object = {}) =>
  world.lead({ email: undefined, first_name: 'Tel', phone, ...body });
const lookUp = (world: SeededApi, phone: string) =>
  world.api.request('GET', '/prospects', {
    query: { phone },
    headers: { Authorization: `Bearer ${world.ws.api_keys.admin?.secret}` },
  });
const marker = async (world: SeededApi, key: { pk: string; sk: string }) =>
  (await world.deps.db.send(new GetCommand({ TableName: world.deps.tableName, Key: key, ConsistentRead: true }))).Item;

describe('a workspace matching phones as sent (the default)', () => {
  it('makes two prospects of one number sent in two formats', async () => {
    const first = answer(await phoneLead(exact, '06 12 34 56 78'));
    const second = answer(await phoneLead(exact, '+33 6 12 34 56 78'));
    expect(first.status).toBe('created');
    expect(second.status).toBe('created');
    expect(second.prospect_id).not.toBe(first.prospect_id);
    const again = answer(await phoneLead(exact, '06 12 34 56 78'));
    expect(again).toMatchObject({ status: 'existing', prospect_id: first.prospect_id });
  });

  it('writes no E.164 marker and finds by the exact string only', async () => {
    const id = answer(await phoneLead(exact, '06 22 33 44 55')).prospect_id;
    expect(await marker(exact, keys.phoneE164Marker(exact.ws.workspace_id, '+33622334455'))).toBeUndefined();
    expect((await lookUp(exact, '+33 6 22 33 44 55')).body).toEqual({ prospects: [] });
    expect((await lookUp(exact, '06 22 33 44 55')).body).toMatchObject({ prospects: [{ id }] });
  });
});

describe('a workspace matching phones in E.164', () => {
  it('makes one prospect of one number sent in two formats, keeping the phone as first sent', async () => {
    const first = answer(await phoneLead(e164, '06 12 34 56 78'));
    expect(first.status).toBe('created');
    const second = answer(await phoneLead(e164, '+33 6 12 34 56 78', { first_name: 'Encore' }));
    expect(second).toMatchObject({ status: 'existing', prospect_id: first.prospect_id });
    const shown = await e164.show(first.prospect_id);
    expect(shown.prospect).toMatchObject({ phone: '06 12 34 56 78', first_name: 'Encore' });
    expect(await marker(e164, keys.phoneE164Marker(e164.ws.workspace_id, '+33612345678'))).toMatchObject({
      record_id: first.prospect_id,
    });
    // The exact marker is written too: turning E.164 off goes back to it.
    expect(await marker(e164, keys.phoneMarker(e164.ws.workspace_id, '06 12 34 56 78'))).toMatchObject({
      record_id: first.prospect_id,
    });
  });

  it('matches a phone that is no valid number exactly as sent', async () => {
    const first = answer(await phoneLead(e164, '12345'));
    expect(answer(await phoneLead(e164, '12345'))).toMatchObject({
      status: 'existing',
      prospect_id: first.prospect_id,
    });
    const other = answer(await phoneLead(e164, '12 345'));
    expect(other.status).toBe('created');
    expect(other.prospect_id).not.toBe(first.prospect_id);
  });

  it('moves both markers when a known e-mail comes with a really new number', async () => {
    const email = 'nouveau-numero@test.fr';
    const id = answer(await e164.lead({ email, phone: '06 33 44 55 66' })).prospect_id;
    // The same number in another format is no new phone: nothing moves, the phone stays as sent.
    expect(answer(await e164.lead({ email, phone: '+33633445566' }))).toMatchObject({
      status: 'existing',
      prospect_id: id,
    });
    expect((await e164.show(id)).prospect).toMatchObject({ phone: '06 33 44 55 66' });
    expect(answer(await e164.lead({ email, phone: '07 44 55 66 77' }))).toMatchObject({
      status: 'existing',
      prospect_id: id,
    });
    expect((await e164.show(id)).prospect).toMatchObject({ phone: '07 44 55 66 77' });

    const ws = e164.ws.workspace_id;
    expect(await marker(e164, keys.phoneE164Marker(ws, '+33633445566'))).toBeUndefined();
    expect(await marker(e164, keys.phoneMarker(ws, '06 33 44 55 66'))).toBeUndefined();
    expect(await marker(e164, keys.phoneE164Marker(ws, '+33744556677'))).toMatchObject({ record_id: id });
    expect(await marker(e164, keys.phoneMarker(ws, '07 44 55 66 77'))).toMatchObject({ record_id: id });

    expect(answer(await phoneLead(e164, '+33 7 44 55 66 77'))).toMatchObject({ status: 'existing', prospect_id: id });
    const old = answer(await phoneLead(e164, '+33 6 33 44 55 66'));
    expect(old.status).toBe('created');
    expect(old.prospect_id).not.toBe(id);
  });

  it('leaves a shared number with the prospect that keeps it when the other takes a new number', async () => {
    const ws = e164.ws.workspace_id;
    const e164Key = keys.phoneE164Marker(ws, '+33611111111');
    const older = answer(await e164.lead({ email: 'aine@test.fr', phone: '06 11 11 11 11' })).prospect_id;
    // Two prospects sharing a number, the older keeping it, as indexing leaves them (docs/api.md#phone-matching).
    await e164.deps.db.send(new DeleteCommand({ TableName: e164.deps.tableName, Key: e164Key }));
    const younger = answer(await e164.lead({ email: 'cadet@test.fr', phone: '+33 6 11 11 11 11' })).prospect_id;
    expect(younger).not.toBe(older);
    await e164.deps.db.send(
      new UpdateCommand({
        TableName: e164.deps.tableName,
        Key: e164Key,
        UpdateExpression: 'SET record_id = :older',
        ExpressionAttributeValues: { ':older': older },
      }),
    );
    expect(answer(await phoneLead(e164, '0611111111'))).toMatchObject({ status: 'existing', prospect_id: older });
    // The younger's own string is still its own: no "phone taken" warning.
    const own = answer(await e164.lead({ email: 'cadet@test.fr', phone: '+33 6 11 11 11 11' }));
    expect(own).toMatchObject({ status: 'existing', prospect_id: younger });
    expect(own.warnings.some((warning) => /téléphone/i.test(warning))).toBe(false);
    // The younger takes a new number: the shared one's E.164 marker stays the older's.
    const moved = answer(await e164.lead({ email: 'cadet@test.fr', phone: '07 00 00 00 01' }));
    expect(moved).toMatchObject({ status: 'existing', prospect_id: younger });
    expect((await e164.show(younger)).prospect).toMatchObject({ phone: '07 00 00 00 01' });
    expect(await marker(e164, e164Key)).toMatchObject({ record_id: older });
    expect(await marker(e164, keys.phoneMarker(ws, '+33 6 11 11 11 11'))).toBeUndefined();
    expect(await marker(e164, keys.phoneE164Marker(ws, '+33700000001'))).toMatchObject({ record_id: younger });
  });

  it('finds a prospect by its number in another format through GET /prospects?phone=', async () => {
    const id = answer(await phoneLead(e164, '06 55 66 77 88')).prospect_id;
    const response = await lookUp(e164, '+33 6 55 66 77 88');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ prospects: [{ id, phone: '06 55 66 77 88' }] });
    expect((await lookUp(e164, '0655667788')).body).toMatchObject({ prospects: [{ id }] });
    expect((await lookUp(e164, '+33 6 55 66 77 89')).body).toEqual({ prospects: [] });
  });

  it('makes one prospect of 50 concurrent leads of one number in 5 formats', async () => {
    const formats = ['0698765432', '06 98 76 54 32', '+33 6 98 76 54 32', '+33698765432', '06.98.76.54.32'];
    const answers = (
      await Promise.all(Array.from({ length: 50 }, (_, index) => phoneLead(e164, formats[index % 5] as string)))
    ).map(answer);
    const ids = new Set(answers.map((one) => one.prospect_id));
    expect(ids.size).toBe(1);
    expect(answers.filter((one) => one.status === 'created')).toHaveLength(1);
    expect(answers.every((one) => one.status === 'created' || one.status === 'existing')).toBe(true);
    const [id] = [...ids] as [string];
    expect(formats).toContain((await e164.show(id)).prospect.phone);
    expect((await lookUp(e164, '+33698765432')).body).toMatchObject({ prospects: [{ id }] });
  }, 30_000);
});

describe('a workspace matching phones in E.164 in region BE', () => {
  it('reads national numbers in its region, for the webhook and the look-up', async () => {
    const id = answer(await phoneLead(belgian, '0470 12 34 56')).prospect_id;
    expect(answer(await phoneLead(belgian, '+32 470 12 34 56'))).toMatchObject({ status: 'existing', prospect_id: id });
    expect((await lookUp(belgian, '+32470123456')).body).toMatchObject({ prospects: [{ id }] });
    expect((await lookUp(belgian, '0470123456')).body).toMatchObject({ prospects: [{ id }] });
    // +33 4 70 12 34 56 is another number (French), not this prospect's.
    expect(answer(await phoneLead(belgian, '+33 4 70 12 34 56')).status).toBe('created');
  });
});

describe('round trips in E.164 matching', () => {
  const deps = productionDeps();
  let api: TestApi;
  let counter: RoundTripCounter;
  beforeAll(async () => {
    counter = countRoundTrips(deps.db);
    api = await startTestApi({ db: deps.db });
  });
  afterAll(async () => {
    await api.close();
    deps.db.destroy();
  });
  beforeEach(() => counter.reset());

  const send = (world: SeededApi, body: object) =>
    api.request('POST', '/webhooks/ingest-lead', {
      query: { endpoint_id: world.ws.webhook?.endpoint_id as string },
      headers: { Authorization: `Bearer ${world.ws.webhook?.token}` },
      body,
    });
  const get = (world: SeededApi, phone: string) =>
    api.request('GET', '/prospects', {
      query: { phone },
      headers: { Authorization: `Bearer ${world.ws.api_keys.admin?.secret}` },
    });

  it('new lead and known lead: 3 each, as in exact matching', async () => {
    expect(answer(await send(e164, { phone: '06 77 88 99 00' })).status).toBe('created');
    expect(counter.calls).toEqual(['UpdateItem', 'BatchGetItem', 'TransactWriteItems']);
    counter.reset();
    expect(answer(await send(e164, { phone: '+33 6 77 88 99 00' })).status).toBe('existing');
    expect(counter.calls).toEqual(['UpdateItem', 'BatchGetItem', 'TransactWriteItems']);
  });

  it('look-up: 4 in region FR, 5 for a national number in another region', async () => {
    await send(e164, { phone: '06 77 88 99 01' });
    counter.reset();
    expect((await get(e164, '+33 6 77 88 99 01')).body).toMatchObject({ prospects: [{ phone: '06 77 88 99 01' }] });
    expect(counter.calls).toEqual(['GetItem', 'UpdateItem', 'BatchGetItem', 'GetItem']);

    await send(belgian, { phone: '0470 99 88 77' });
    counter.reset();
    expect((await get(belgian, '0470998877')).body).toMatchObject({ prospects: [{ phone: '0470 99 88 77' }] });
    expect(counter.calls).toEqual(['GetItem', 'UpdateItem', 'BatchGetItem', 'BatchGetItem', 'GetItem']);
  });
});
