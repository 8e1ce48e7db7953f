/**
 * Items kept for a time (the webhook call journal, the deliveries) carry `expires_at`, the table's
 * TTL attribute in epoch seconds. TTL deletes an expired item in the background, typically within
 * two days, and until then reads, queries and scans still return it
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateTimeToLive.html,
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/howitworks-ttl.html): whoever
 * lists or shows them filters on it against the clock, as AWS shows in "Working with expired items"
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ttl-expired-items.html).
 */

/** `now` in the TTL attribute's unit. */
export const epochSeconds = (now: Date): number => Math.floor(now.getTime() / 1000);

/** An item is kept while its `expires_at` is still ahead of `now`; at that second or later it is gone. */
export const stillKept = (item: { expires_at: number }, now: Date): boolean => item.expires_at > epochSeconds(now);

/** The same rule as a Query filter (names `#expires_at`, value `:now`), with its placeholders. */
export const stillKeptFilter = (now: Date) => ({
  expression: '#expires_at > :now',
  names: { '#expires_at': 'expires_at' },
  values: { ':now': epochSeconds(now) },
});
