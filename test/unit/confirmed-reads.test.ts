import { fakeTable, fixture, storedProspect, transactionCancelled } from '../support/fake-table';
import { callRoute } from '../support/route-calls';

/**
 * PATCH and tags read the prospect with the configuration eventually consistently (docs/adr/0007-fewer-round-trips.md):
 * a stale read can only lose a conditional write's race, but an answer that writes nothing has no
 * condition behind it, so it is taken only from a strongly consistent read of the prospect.
 * The fake table answers the eventually consistent read with what a replica that missed the last
 * write would hold, and the confirming read with the stored truth.
 */

const consistency = (input: Record<string, unknown>) =>
  Object.values(input.RequestItems as Record<string, { ConsistentRead?: boolean }>)[0]?.ConsistentRead;

const stale = (overrides: Record<string, unknown>) => ({ answer: { Item: storedProspect(overrides) } });
const truth = (overrides: Record<string, unknown> = {}) => ({
  answer: { Item: storedProspect({ version: 5, ...overrides }) },
});

describe('an answer that writes nothing comes from a strongly consistent read', () => {
  it('PATCH: a stale "already on that stage" is checked, and the move is written', async () => {
    const table = fakeTable();
    table.script(
      'prospect-read',
      stale({ stage_id: fixture.stages.followUp }),
      truth({ stage_id: fixture.stages.new }),
    );
    const response = await callRoute('updateProspect', table.deps, { body: { stage: 'Relance' } });
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ changed: ['stage'], stage_id: fixture.stages.followUp });
    expect(table.calls('prospect-read').map(consistency)).toEqual([false, true]);
    expect(table.calls('transaction')).toHaveLength(1);
  });

  it('PATCH: a value really already set answers changed [] after the confirming read, writing nothing', async () => {
    const table = fakeTable();
    const response = await callRoute('updateProspect', table.deps, { body: { stage: 'Nouveau' } });
    expect(JSON.parse(response.body)).toMatchObject({ changed: [] });
    expect(table.calls('prospect-read').map(consistency)).toEqual([false, true]);
    expect(table.calls('transaction')).toHaveLength(0);
  });

  it('PATCH: a prospect created a moment ago and missed by the replica is found, not 404', async () => {
    const table = fakeTable();
    table.script('prospect-read', { answer: {} }, truth());
    const response = await callRoute('updateProspect', table.deps, { body: { stage: 'Relance' } });
    expect(response.statusCode).toBe(200);
    expect(table.calls('prospect-read').map(consistency)).toEqual([false, true]);
  });

  it('PATCH: a prospect that really does not exist is 404 after the confirming read', async () => {
    const table = fakeTable();
    table.script('prospect-read', { answer: {} }, { answer: {} });
    const response = await callRoute('updateProspect', table.deps, { body: { stage: 'Relance' } });
    expect(response.statusCode).toBe(404);
    expect(table.calls('prospect-read').map(consistency)).toEqual([false, true]);
    expect(table.calls('transaction')).toHaveLength(0);
  });

  it('PATCH: a change decided on the eventually consistent read is written at once, without a second read', async () => {
    const table = fakeTable();
    const response = await callRoute('updateProspect', table.deps, { body: { stage: 'Relance' } });
    expect(JSON.parse(response.body)).toMatchObject({ changed: ['stage'] });
    expect(table.calls('prospect-read').map(consistency)).toEqual([false]);
  });

  it('PATCH: a stale read whose write loses the race is read again strongly consistently', async () => {
    const table = fakeTable();
    table.script('transaction', { fail: transactionCancelled('ConditionalCheckFailed', 'None') });
    const response = await callRoute('updateProspect', table.deps, { body: { stage: 'Relance' } });
    expect(response.statusCode).toBe(200);
    expect(table.calls('prospect-read').map(consistency)).toEqual([false, true]);
  });

  it('POST tag: a stale "already present" is checked, and the tag is added', async () => {
    const table = fakeTable();
    table.script(
      'prospect-read',
      stale({ tag_ids: new Set([fixture.tags.hot, fixture.tags.vip]) }),
      truth({ tag_ids: new Set([fixture.tags.hot]) }),
    );
    const response = await callRoute('addTag', table.deps, { body: { tag: 'VIP' } });
    expect(response.statusCode).toBe(201);
    expect(JSON.parse(response.body)).toMatchObject({ outcome: 'added' });
    expect(table.calls('prospect-read').map(consistency)).toEqual([false, true]);
    expect(table.calls('transaction')).toHaveLength(1);
  });

  it('DELETE tag: a stale "absent" is checked, and the tag is removed', async () => {
    const table = fakeTable();
    table.script('prospect-read', stale({ tag_ids: undefined }), truth({ tag_ids: new Set([fixture.tags.hot]) }));
    const response = await callRoute('removeTag', table.deps);
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ outcome: 'removed' });
    expect(table.calls('prospect-read').map(consistency)).toEqual([false, true]);
  });

  it('POST tag: a tag really present answers already_present after the confirming read', async () => {
    const table = fakeTable();
    const response = await callRoute('addTag', table.deps, { body: { tag: 'Chaud' } });
    expect(JSON.parse(response.body)).toMatchObject({ outcome: 'already_present' });
    expect(table.calls('prospect-read').map(consistency)).toEqual([false, true]);
    expect(table.calls('transaction')).toHaveLength(0);
  });
});
