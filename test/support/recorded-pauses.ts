import { jest } from '@jest/globals';
import { defaultRetryPolicy, defaultRoundPolicy } from '../../lib/storage/conditional-writes';

/**
 * Fault tests of the handlers: the retry pauses are recorded instead of waited (transaction
 * conflicts and optimistic rounds apart), and the expected error logs are kept off the output.
 */
export function recordPauses(): { conflict: number[]; round: number[] } {
  const pauses = { conflict: [] as number[], round: [] as number[] };
  beforeEach(() => {
    pauses.conflict.length = 0;
    pauses.round.length = 0;
    jest.spyOn(defaultRetryPolicy, 'sleep').mockImplementation(async (ms) => void pauses.conflict.push(ms));
    jest.spyOn(defaultRoundPolicy, 'sleep').mockImplementation(async (ms) => void pauses.round.push(ms));
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());
  return pauses;
}
