import { decodeDecision, encodeDecision, grants, type AuthDecision } from '../../lib/auth/context';

describe('authorizer context contract', () => {
  const apiKey: AuthDecision = {
    outcome: 'allowed',
    principal: { kind: 'api-key', workspaceId: 'w', keyId: 'k', scopes: ['pipelines:read', 'notes:write'] },
  };
  const webhook: AuthDecision = {
    outcome: 'allowed',
    principal: {
      kind: 'webhook',
      workspaceId: 'w',
      endpointId: 'e',
      phone: { phone_matching: 'exact', phone_region: 'FR' },
    },
  };
  const e164Webhook: AuthDecision = {
    outcome: 'allowed',
    principal: {
      kind: 'webhook',
      workspaceId: 'w',
      endpointId: 'e',
      phone: { phone_matching: 'e164', phone_region: 'BE' },
    },
  };

  it.each([
    apiKey,
    webhook,
    e164Webhook,
    { outcome: 'endpoint_unknown' } as AuthDecision,
    { outcome: 'failed' } as AuthDecision,
  ])('round-trips %j through flat string values', (decision) => {
    const context = encodeDecision(decision);
    expect(Object.values(context).every((value) => typeof value === 'string')).toBe(true);
    expect(decodeDecision(context)).toEqual(decision);
  });

  it('reads a missing or tampered context as unauthorized', () => {
    expect(decodeDecision(undefined)).toEqual({ outcome: 'unauthorized' });
    expect(decodeDecision({ outcome: 'allowed' })).toEqual({ outcome: 'unauthorized' });
    expect(decodeDecision({ outcome: 'allowed', workspaceId: 'w', kind: 'webhook' })).toEqual({
      outcome: 'unauthorized',
    });
    expect(decodeDecision({ outcome: 'granted', workspaceId: 'w' })).toEqual({ outcome: 'unauthorized' });
  });

  it('reads absent or unreadable phone settings as the defaults', () => {
    const defaults = { phone_matching: 'exact', phone_region: 'FR' };
    const base = { outcome: 'allowed', kind: 'webhook', workspaceId: 'w', endpointId: 'e' };
    expect(decodeDecision(base)).toEqual({
      outcome: 'allowed',
      principal: { kind: 'webhook', workspaceId: 'w', endpointId: 'e', phone: defaults },
    });
    expect(decodeDecision({ ...base, phoneMatching: 'fuzzy', phoneRegion: 'france' })).toMatchObject({
      principal: { phone: defaults },
    });
    expect(
      encodeDecision({ outcome: 'allowed', principal: { kind: 'webhook', workspaceId: 'w', endpointId: 'e' } }),
    ).toEqual(base);
  });

  it('grants a scope explicitly or through *', () => {
    expect(grants(['pipelines:read'], 'pipelines:read')).toBe(true);
    expect(grants(['*'], 'tags:write')).toBe(true);
    expect(grants(['pipelines:read'], 'tags:write')).toBe(false);
  });
});
