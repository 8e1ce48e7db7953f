import { createPrivateKey, createSign, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { createRequire } from 'node:module';

/**
 * Access tokens as a Cognito user pool signs them (RS256, `kid` of its key set), signed by a key of the test's
 * own: for the verifier's cases that the local provider cannot be made to issue (expired, another pool, altered,
 * `alg: none`). Tests only; the service never builds or reads a token by hand.
 */
export type TestSigningKey = { privateKey: KeyObject; jwks: string; kid: string };

export function aSigningKey(kid = `test-${randomUUID()}`): TestSigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' };
  return { privateKey, jwks: JSON.stringify({ keys: [jwk] }), kid };
}

/**
 * The key cognito-local signs every pool's tokens with (shipped in its package, `kid` CognitoLocal): tokens signed
 * with it pass the local pool's key set, so a test can make the ones the provider would not issue (expired, an id
 * token, another client) and see the service itself refuse them.
 */
export function localPoolSigningKey(): TestSigningKey {
  const shipped = createRequire(import.meta.url)('cognito-local/lib/keys/cognitoLocal.private.json') as { pem: string };
  return { privateKey: createPrivateKey(shipped.pem), jwks: '', kid: 'CognitoLocal' };
}

const part = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');

export function signedToken(
  key: TestSigningKey,
  claims: Record<string, unknown>,
  header: Record<string, unknown> = { alg: 'RS256', typ: 'JWT', kid: key.kid },
): string {
  const unsigned = `${part(header)}.${part(claims)}`;
  if (header.alg === 'none') return `${unsigned}.`;
  const signature = createSign('RSA-SHA256').update(unsigned).sign(key.privateKey).toString('base64url');
  return `${unsigned}.${signature}`;
}

/** The claims of a Cognito access token of `clientId` for `email`, valid for an hour from `now`. */
export function accessClaims(options: {
  issuer: string;
  clientId: string;
  email: string;
  now?: number;
}): Record<string, unknown> {
  const now = options.now ?? Math.floor(Date.now() / 1000);
  return {
    sub: randomUUID(),
    iss: options.issuer,
    client_id: options.clientId,
    token_use: 'access',
    scope: 'aws.cognito.signin.user.admin',
    auth_time: now,
    iat: now,
    exp: now + 3600,
    jti: randomUUID(),
    username: options.email,
  };
}
