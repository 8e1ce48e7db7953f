import { DateTime } from 'luxon';

/*
 * How long a workspace keeps its prospects and candidates (docs/api.md#workspaces, `retention_months`): a whole number
 * of calendar months, or null, kept until erased (the default). The daily erasure reads it with `retentionCutoff`.
 */

/** At least a month; at most ten years, the longest any customer's register of processing has asked for. */
export const retentionMonthsRange = { min: 1, max: 120 } as const;

/** Whether `value` is a retention a workspace may set: an integer from 1 to 120 (1.5, "12", 0 or 121 are not). */
export const isRetentionMonths = (value: unknown): value is number =>
  Number.isInteger(value) &&
  (value as number) >= retentionMonthsRange.min &&
  (value as number) <= retentionMonthsRange.max;

/**
 * The instant `months` calendar months before `now`, in UTC: what was last written before it has outlived the
 * retention. A month back from a day the earlier month lacks is that month's last day (31 March − 1 month: 28 or 29
 * February, same time of day), as luxon's calendar arithmetic clamps it.
 */
export const retentionCutoff = (now: Date, months: number): Date =>
  DateTime.fromJSDate(now, { zone: 'utc' }).minus({ months }).toJSDate();
