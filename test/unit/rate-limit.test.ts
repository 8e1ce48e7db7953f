import { rateLimitState, windowOf } from '../../lib/storage/rate-limit';
import { rateLimitHeaders } from '../../lib/http/middleware/route';

describe('rate-limit windows and headers', () => {
  const now = new Date('2026-11-22T10:15:42.250Z');

  it('uses fixed one-minute windows', () => {
    expect(windowOf(now)).toEqual({
      start: new Date('2026-11-22T10:15:00.000Z'),
      end: new Date('2026-11-22T10:16:00.000Z'),
    });
  });

  it('reports the general limit for a request that is not a stage change', () => {
    expect(rateLimitHeaders(rateLimitState({ requests: 7, stageChanges: 0 }, false, now))).toEqual({
      'RateLimit-Limit': '120',
      'RateLimit-Remaining': '113',
      'RateLimit-Reset': '18',
    });
  });

  it('reports the tighter limit for a stage change', () => {
    expect(rateLimitState({ requests: 10, stageChanges: 4 }, true, now)).toEqual({
      limit: 30,
      remaining: 26,
      resetSeconds: 18,
    });
    expect(rateLimitState({ requests: 119, stageChanges: 4 }, true, now)).toEqual({
      limit: 120,
      remaining: 1,
      resetSeconds: 18,
    });
  });

  it('never reports a negative remainder', () => {
    expect(rateLimitState({ requests: 130, stageChanges: 0 }, false, now).remaining).toBe(0);
  });
});
