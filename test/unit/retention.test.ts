import { defaultWorkspaceSettings, workspaceSettingsOf } from '../../lib/domain/model';
import { isRetentionMonths, retentionCutoff } from '../../lib/domain/retention';

const cutoff = (now: string, months: number) => retentionCutoff(new Date(now), months).toISOString();

describe('retentionCutoff: calendar months back from now, in UTC', () => {
  it.each([
    ['a month back from the middle of a month', '2026-05-15T10:30:00.000Z', 1, '2026-04-15T10:30:00.000Z'],
    ['31 March, one month back: the last day of February', '2026-03-31T23:59:59.999Z', 1, '2026-02-28T23:59:59.999Z'],
    ['31 March of a leap year: 29 February', '2028-03-31T08:00:00.000Z', 1, '2028-02-29T08:00:00.000Z'],
    ['31 May, three months back: 28 February', '2026-05-31T00:00:00.000Z', 3, '2026-02-28T00:00:00.000Z'],
    ['31 December, one month back: 30 November', '2026-12-31T12:00:00.000Z', 1, '2026-11-30T12:00:00.000Z'],
    ['across a year', '2026-01-10T00:00:00.000Z', 2, '2025-11-10T00:00:00.000Z'],
    ['29 February, twelve months back', '2028-02-29T06:00:00.000Z', 12, '2027-02-28T06:00:00.000Z'],
    ['ten years back', '2026-07-01T00:00:00.000Z', 120, '2016-07-01T00:00:00.000Z'],
  ])('%s', (_case, now, months, expected) => expect(cutoff(now, months)).toBe(expected));

  it('counts in UTC whatever the zone of the process: a Paris midnight is the day before in UTC', () => {
    // 1 April 00:30 in Paris is 31 March 22:30 UTC: its month back is 28 February, not 1 March.
    expect(cutoff('2026-03-31T22:30:00.000Z', 1)).toBe('2026-02-28T22:30:00.000Z');
  });

  it('leaves now as it was', () => {
    const now = new Date('2026-03-31T00:00:00.000Z');
    retentionCutoff(now, 1);
    expect(now.toISOString()).toBe('2026-03-31T00:00:00.000Z');
  });
});

describe('isRetentionMonths', () => {
  it.each([1, 12, 36, 120])('takes %j', (value) => expect(isRetentionMonths(value)).toBe(true));
  it.each([0, 121, 1.5, -1, '12', null, undefined, Number.NaN, Number.POSITIVE_INFINITY, [12]])('refuses %j', (value) =>
    expect(isRetentionMonths(value)).toBe(false),
  );
});

describe('the retention a configuration item says', () => {
  it('is null (kept until erased) when never set, or unreadable', () => {
    expect(defaultWorkspaceSettings.retention_months).toBeNull();
    for (const stored of [
      undefined,
      {},
      { retention_months: '12' },
      { retention_months: 0 },
      { retention_months: 1.5 },
    ])
      expect(workspaceSettingsOf(stored).retention_months).toBeNull();
  });

  it('is the number stored', () => expect(workspaceSettingsOf({ retention_months: 24 }).retention_months).toBe(24));
});
