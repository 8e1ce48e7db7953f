import { randomUUID } from 'node:crypto';
import { eventsOfChange, subjectOfChange } from '../../lib/domain/events/events-of-change';
import { delayUntil } from '../../lib/domain/follow-ups/queue-delay';
import { scheduleChangeOf } from '../../lib/domain/follow-ups/schedule-of-change';
import { parseFollowUpDueMessage } from '../../lib/domain/follow-ups/send-follow-up-due';
import type { FollowUpScheduleItem } from '../../lib/storage/follow-up-schedule';
import type { StoredChange } from '../../lib/storage/stream-records';
import { keys, type ProspectItem } from '../../lib/storage/table-items';
import { aProspectItem } from '../support/prospect-items';

/**
 * What a prospect's write asks of its follow-up schedule, a message's delay and body, and the event a schedule marked
 * sent makes (docs/events.md, "Follow-ups falling due"); the table's side: test/integration/follow-up-due.test.ts.
 */

const workspaceId = randomUUID();
const at = '2026-10-25T08:00:00.000Z';
const later = '2026-10-25T09:30:00.000Z';

const changeOf = (before: object | undefined, after: object | undefined, eventName?: StoredChange['eventName']) => {
  const item = (after ?? before) as { pk: string; sk: string };
  return {
    eventName: eventName ?? (before ? 'MODIFY' : 'INSERT'),
    sequenceNumber: '1',
    pk: item.pk,
    sk: item.sk,
    ...(before ? { before: { ...before } } : {}),
    ...(after ? { after: { ...after } } : {}),
  } as StoredChange;
};
const prospect = aProspectItem(workspaceId, { created_at: at, updated_at: at });
const next = (from: ProspectItem, fields: Partial<ProspectItem>): ProspectItem => ({
  ...from,
  version: from.version + 1,
  updated_at: at,
  ...fields,
});

describe('a prospect’s write and its schedule', () => {
  const scheduled = next(prospect, { next_follow_up_at: later });
  test.each([
    ['a new prospect without a follow-up', changeOf(undefined, prospect), undefined],
    ['a new prospect with one ahead', changeOf(undefined, { ...prospect, next_follow_up_at: later }), later],
    ['a follow-up set ahead', changeOf(prospect, scheduled), later],
    [
      'a follow-up moved',
      changeOf(scheduled, next(scheduled, { next_follow_up_at: '2026-10-26T07:00:00.000Z' })),
      '2026-10-26T07:00:00.000Z',
    ],
    ['a follow-up cancelled', changeOf(scheduled, next(scheduled, { next_follow_up_at: null })), null],
    [
      'a follow-up set to a time past when written',
      changeOf(prospect, next(prospect, { next_follow_up_at: at })),
      undefined,
    ],
    [
      'moved from a time ahead to one past',
      changeOf(scheduled, next(scheduled, { next_follow_up_at: '2026-10-24T08:00:00.000Z' })),
      null,
    ],
    ['another field changed', changeOf(scheduled, next(scheduled, { stage_id: randomUUID() })), undefined],
    [
      'a write that keeps the version (the purge of a deleted field)',
      changeOf(prospect, { ...scheduled, version: prospect.version }),
      undefined,
    ],
    ['an erasure', changeOf(scheduled, undefined, 'REMOVE'), undefined],
  ])('%s', (_case, change, waited) => {
    const asked = scheduleChangeOf(change);
    if (waited === undefined) expect(asked).toBeUndefined();
    else
      expect(asked).toEqual({ workspaceId, prospectId: prospect.id, version: expect.any(Number), followUpAt: waited });
  });
});

describe('a message’s delay', () => {
  const now = new Date('2026-10-25T08:00:00.000Z');
  test.each([
    [now.getTime() + 1, 1],
    [now.getTime() + 100_000, 100],
    [now.getTime() + 100_001, 101],
    [now.getTime(), 0],
    [now.getTime() - 5_000, 0],
    [now.getTime() + 3_600_000, 900],
  ])('until %d: %d s, rounded up and within SQS’s 900', (until, seconds) => {
    expect(delayUntil(until, now)).toBe(seconds);
  });
});

test('a queue body that is no follow-up message is refused', () => {
  const message = { workspace_id: workspaceId, prospect_id: prospect.id, follow_up_at: later };
  expect(parseFollowUpDueMessage(JSON.stringify(message))).toEqual(message);
  for (const body of [
    '{',
    '[]',
    JSON.stringify({ ...message, follow_up_at: 'demain' }),
    JSON.stringify({ ...message, prospect_id: '' }),
  ])
    expect(parseFollowUpDueMessage(body)).toBeUndefined();
});

describe('the event of a schedule marked sent', () => {
  const schedule: FollowUpScheduleItem = {
    ...keys.followUpSchedule(workspaceId, prospect.id),
    type: 'follow_up_schedule',
    workspace_id: workspaceId,
    id: prospect.id,
    follow_up_at: later,
    prospect_version: 2,
    gsi4pk: keys.followUpShard(prospect.id),
    gsi4sk: later,
  };
  const sent = (sentAt: string, late: boolean) => ({ ...schedule, sent_for: later, sent_at: sentAt, late });
  const context = { tags: [], fields: [], record: { ...scheduled(), next_follow_up_at: later } };
  function scheduled(): ProspectItem {
    return next(prospect, { next_follow_up_at: later });
  }

  test('one event with the prospect, the time and `late`; its id from the prospect and the time, whenever sent', () => {
    const change = changeOf(schedule, sent('2026-10-25T09:30:02.000Z', false));
    expect(subjectOfChange(change)).toEqual({
      workspaceId,
      types: ['prospect.follow_up_due'],
      record: keys.prospect(workspaceId, prospect.id),
    });
    const [event, ...others] = eventsOfChange(change, context);
    expect(others).toEqual([]);
    expect(event?.body).toEqual({
      type: 'prospect.follow_up_due',
      timestamp: '2026-10-25T09:30:02.000Z',
      data: { prospect: expect.objectContaining({ id: prospect.id }), follow_up_at: later, late: false },
    });
    const lateOne = eventsOfChange(changeOf(schedule, sent('2026-10-25T10:30:00.000Z', true)), context);
    expect(lateOne[0]?.id).toBe(event?.id);
    expect(lateOne[0]?.body.data.late).toBe(true);
  });

  test('none for the schedule’s other writes: created, moved, cancelled, or written again once sent', () => {
    const moved = { ...sent('2026-10-25T09:30:02.000Z', false), follow_up_at: at, gsi4sk: at };
    for (const change of [
      changeOf(undefined, schedule),
      changeOf(schedule, { ...schedule, follow_up_at: at, gsi4sk: at }),
      changeOf(sent('2026-10-25T09:30:02.000Z', false), moved),
    ]) {
      expect(subjectOfChange(change)).toBeUndefined();
      expect(eventsOfChange(change, context)).toEqual([]);
    }
  });

  test('none when the prospect is gone by the time the event is built', () => {
    expect(eventsOfChange(changeOf(schedule, sent(later, false)), { tags: [], fields: [] })).toEqual([]);
  });
});
