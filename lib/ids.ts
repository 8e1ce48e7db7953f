import { createHash } from 'node:crypto';

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
