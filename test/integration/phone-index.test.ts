import { aProspectItem } from '../support/prospect-items';
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { inRegion } from '../../tools/admin/use-cases/workspaces';
import { productionDeps } from '../../lib/storage/client';
import { keys, items } from '../../lib/storage/table-items';
import { indexPhones, listProspectPhones, removeOldRegionMarkers } from '../../tools/admin/storage/phone-index';

const deps = productionDeps();
afterAll(() => deps.db.destroy());

const prospectAt = (workspaceId: string, at: string, phone: string | null, id = randomUUID()) =>
  aProspectItem(workspaceId, { id, pipeline_id: 'p', stage_id: 's', phone, created_at: at });

const put = (item: object) => deps.db.send(new PutCommand({ TableName: deps.tableName, Item: item }));
const marker = async (workspaceId: string, e164: string) =>
  (await deps.db.send(new GetCommand({ TableName: deps.tableName, Key: keys.phoneE164Marker(workspaceId, e164) })))
    .Item;

describe('index gsi3: the prospects of a workspace', () => {
  it('lists them oldest first with only the projected attributes, and no other workspace', async () => {
    const workspaceId = randomUUID();
    const newer = prospectAt(workspaceId, '2002-01-02T00:00:00.000Z', '+33612345678');
    const older = prospectAt(workspaceId, '2002-01-01T00:00:00.000Z', null);
    await put(newer);
    await put(older);
    await put(prospectAt(randomUUID(), '2002-01-01T00:00:00.000Z', '+33612345678'));
    expect(newer).toMatchObject({
      gsi3pk: `WS#${workspaceId}#PROSPECTS`,
      gsi3sk: `2002-01-02T00:00:00.000Z#${newer.id}`,
    });
    expect(await listProspectPhones(deps, workspaceId)).toEqual([
      { id: older.id, phone: null, created_at: older.created_at },
      { id: newer.id, phone: '+33612345678', created_at: newer.created_at },
    ]);
    const { Items } = await deps.db.send(
      new QueryCommand({
        TableName: deps.tableName,
        IndexName: 'gsi3',
        KeyConditionExpression: 'gsi3pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.prospectsOfWorkspace(workspaceId) },
      }),
    );
    expect(Object.keys(Items?.[0] ?? {}).sort()).toEqual(
      ['created_at', 'gsi3pk', 'gsi3sk', 'id', 'phone', 'pk', 'sk'].sort(),
    );
  });
});

describe('indexPhones', () => {
  it('indexes many prospects in parallel, reporting progress, each number held by its oldest prospect', async () => {
    const workspaceId = randomUUID();
    const prospects = Array.from({ length: 60 }, (_, index) =>
      prospectAt(
        workspaceId,
        `2002-02-01T00:00:${String(index).padStart(2, '0')}.000Z`,
        `06 12 34 56 ${String(index % 30).padStart(2, '0')}`,
      ),
    );
    for (const prospect of prospects) await put(prospect);
    const seen: [number, number][] = [];
    const shared = await indexPhones(
      deps,
      workspaceId,
      await listProspectPhones(deps, workspaceId),
      inRegion('FR'),
      (done, total) => seen.push([done, total]),
    );
    expect(seen[0]).toEqual([0, 30]);
    expect(seen.at(-1)).toEqual([30, 30]);
    expect(shared).toHaveLength(30);
    for (const [index, number] of shared.entries()) {
      expect(number).toEqual({
        phone_e164: `+336123456${String(index).padStart(2, '0')}`,
        kept: prospects[index]!.id,
        others: [prospects[index + 30]!.id],
      });
    }
    expect(await marker(workspaceId, '+33612345600')).toMatchObject({
      record_id: prospects[0]!.id,
      workspace_id: workspaceId,
    });
  });

  it('leaves a marker held by a prospect it does not list; takes over one another region left', async () => {
    const workspaceId = randomUUID();
    const unknown = randomUUID();
    const mine = prospectAt(workspaceId, '2002-03-01T00:00:00.000Z', '+33 6 00 00 00 01');
    const national = prospectAt(workspaceId, '2002-03-02T00:00:00.000Z', '06 00 00 00 02');
    const international = prospectAt(workspaceId, '2002-03-03T00:00:00.000Z', '+33 6 00 00 00 02');
    for (const prospect of [mine, national, international]) await put(prospect);
    await put(items.marker(keys.phoneE164Marker(workspaceId, '+33600000001'), workspaceId, unknown));
    // Written while the region was FR: `06 00 00 00 02` is no number in BE.
    await put(items.marker(keys.phoneE164Marker(workspaceId, '+33600000002'), workspaceId, national.id));

    const listed = await listProspectPhones(deps, workspaceId);
    const shared = await indexPhones(deps, workspaceId, listed, inRegion('BE'));
    expect(shared).toEqual([{ phone_e164: '+33600000001', kept: unknown, others: [mine.id] }]);
    expect((await marker(workspaceId, '+33600000002'))?.record_id).toBe(international.id);

    // The old region's marker of `national` was taken over: its removal, conditional on it, leaves it.
    expect(await removeOldRegionMarkers(deps, workspaceId, listed, { old: inRegion('FR'), new: inRegion('BE') })).toBe(
      0,
    );
    expect((await marker(workspaceId, '+33600000002'))?.record_id).toBe(international.id);
  });
});
