import { webhookToken } from '../../lib/auth/authorize';

describe('webhook token places', () => {
  it('reads Authorization: Bearer first', () => {
    expect(
      webhookToken({ headers: { Authorization: 'Bearer a', 'X-Webhook-Token': 'b' }, query: { token: 'c' } }),
    ).toBe('a');
  });

  it('reads x-webhook-token when Authorization carries no bearer token', () => {
    expect(
      webhookToken({ headers: { authorization: 'Basic dXNlcjpwYXNz', 'x-webhook-token': 'b' }, query: null }),
    ).toBe('b');
    expect(webhookToken({ headers: { authorization: 'Bearer ', 'x-webhook-token': 'b' }, query: null })).toBe('b');
  });

  it('reads ?token= only when no header counts', () => {
    expect(webhookToken({ headers: { authorization: 'Basic abc' }, query: { token: 'c' } })).toBe('c');
    expect(webhookToken({ headers: { 'x-webhook-token': '' }, query: { token: 'c' } })).toBe('c');
  });

  it('never falls back to ?token= once a header counts, even a wrong one', () => {
    expect(webhookToken({ headers: { 'x-webhook-token': 'wrong' }, query: { token: 'right' } })).toBe('wrong');
  });

  it('finds nothing when no place carries a token', () => {
    expect(webhookToken({ headers: {}, query: { endpoint_id: 'x' } })).toBeUndefined();
    expect(webhookToken({ headers: null, query: null })).toBeUndefined();
  });
});
