import { createHash, randomBytes } from 'node:crypto';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: unknown): value is string => typeof value === 'string' && uuidPattern.test(value);

/**
 * Ids derived from a seed, in order: the same seed gives the same ids, so a request replayed under
 * its Idempotency-Key writes the same items as its first attempt (UUID v4 layout, variant 10).
 */
export function seededIds(seed: string): () => string {
  let counter = 0;
  return () => {
    const hex = createHash('sha256')
      .update(`${seed}:${(counter += 1)}`)
      .digest('hex');
    const variant = ((parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  };
}

/**
 * A UUID version 7 (RFC 9562, section 5.7): 48 bits of Unix milliseconds, then random bits, so
 * ids sort by creation time as text. Webhook calls take such ids: the journal lists them newest
 * first by sort key, and one is read back by its id alone.
 */
export function timeOrderedId(now: Date): string {
  return timeOrderedIdOf(now, randomBytes(10).toString('hex'));
}

/** The part of a time-ordered id that says its millisecond: every id of `at` or later sorts after it as text. */
export const timeOrderedIdPrefix = (at: Date): string => {
  const time = at.getTime().toString(16).padStart(12, '0').slice(-12);
  return `${time.slice(0, 8)}-${time.slice(8, 12)}`;
};

const timeOrderedIdOf = (at: Date, hex: string): string => {
  const variant = ((parseInt(hex[3] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${timeOrderedIdPrefix(at)}-7${hex.slice(0, 3)}-${variant}${hex.slice(4, 7)}-${hex.slice(8, 20)}`;
};

/**
 * A UUID version 7 layout whose random part is derived from `seed`: the same write seen twice in
 * the change stream gives the same event id, and the same event and subscription the same delivery
 * id, so a record delivered twice by the stream is de-duplicated by a conditional put.
 */
export function derivedTimeOrderedId(at: Date, seed: string): string {
  return timeOrderedIdOf(at, createHash('sha256').update(seed, 'utf8').digest('hex'));
}
