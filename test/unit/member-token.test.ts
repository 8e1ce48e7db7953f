import { createMemberTokenVerifier } from '../../lib/identity/member-token';
import { accessClaims, aSigningKey, signedToken } from '../support/access-tokens';

const issuer = 'http://127.0.0.1:9229/local_pool';
const clientId = 'client-of-the-service';
const key = aSigningKey();
const verifier = createMemberTokenVerifier({ issuer, clientId, jwks: key.jwks });
const claims = (extra: Record<string, unknown> = {}) => ({
  ...accessClaims({ issuer, clientId, email: 'alice@acme.test' }),
  ...extra,
});

describe('the member access token verifier', () => {
  it('answers the user name, token id and issue time of a valid access token', async () => {
    const valid = claims();
    await expect(verifier.verify(signedToken(key, valid))).resolves.toEqual({
      email: 'alice@acme.test',
      tokenId: valid.jti,
      issuedAt: valid.iat,
    });
  });

  it.each([
    ['of another user pool', { iss: 'http://127.0.0.1:9229/local_other' }],
    ['expired', { iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600 }],
    ['an id token', { token_use: 'id', aud: clientId }],
    ['of another app client', { client_id: 'another-client' }],
    ['without a token id', { jti: undefined }],
  ])('refuses a token %s', async (_case, extra) => {
    await expect(verifier.verify(signedToken(key, claims(extra)))).resolves.toBeUndefined();
  });

  it('refuses a token whose claims were altered after signing', async () => {
    const [header, , signature] = signedToken(key, claims()).split('.');
    const altered = Buffer.from(JSON.stringify(claims({ username: 'mallory@acme.test' }))).toString('base64url');
    await expect(verifier.verify(`${header}.${altered}.${signature}`)).resolves.toBeUndefined();
  });

  it('refuses an unsigned token (alg none)', async () => {
    const unsigned = signedToken(key, claims(), { alg: 'none', typ: 'JWT', kid: key.kid });
    await expect(verifier.verify(unsigned)).resolves.toBeUndefined();
  });

  it('refuses a token signed by another key under the same key id', async () => {
    const impostor = { ...aSigningKey(key.kid), kid: key.kid };
    await expect(verifier.verify(signedToken(impostor, claims()))).resolves.toBeUndefined();
  });

  it('refuses a token signed by a key the key set does not have', async () => {
    await expect(verifier.verify(signedToken(aSigningKey(), claims()))).resolves.toBeUndefined();
  });

  it.each(['', 'not-a-jwt', 'a.b.c', 'crm_key_abc'])('refuses %p', async (token) => {
    await expect(verifier.verify(token)).resolves.toBeUndefined();
  });
});
