import { JwtBaseError, FetchError } from 'aws-jwt-verify/error';
import { JwtVerifier } from 'aws-jwt-verify/jwt-verifier';
import type { Jwks } from 'aws-jwt-verify/jwk';
import type { IdentityConfig } from './config';

class WrongTokenError extends Error {
  override readonly name = 'WrongTokenError';
}

/** What the authorizer takes from a member's access token: who (the user name, the e-mail) and which token. */
export type AccessTokenClaims = { email: string; tokenId: string; issuedAt: number };

export type MemberTokenVerifier = {
  /** The claims of a valid access token of this pool and client; undefined for any other token. */
  verify(token: string): Promise<AccessTokenClaims | undefined>;
};

/**
 * One verifier per cold start (docs/adr/0013-member-sign-in.md): `aws-jwt-verify` checks the signature against the
 * pool's key set, the issuer and the expiry; Cognito access tokens carry no `aud`, so the check of `token_use` and
 * `client_id` is ours, as "Verifying a JSON Web Token" asks
 * (https://docs.aws.amazon.com/cognito/latest/developerguide/amazon-cognito-user-pools-using-tokens-verifying-a-jwt.html).
 * `JwtVerifier` is what `JwtRsaVerifier` became in aws-jwt-verify 5 (the old name is its deprecated alias):
 * `CognitoJwtVerifier` refuses the local pool ids (`local_…`). On AWS the key set is fetched over https on first
 * use; locally it is served over http, which the library does not fetch, so the local runtime hands it over.
 */
export function createMemberTokenVerifier(
  config: Pick<IdentityConfig, 'issuer' | 'clientId' | 'jwks'>,
): MemberTokenVerifier {
  const verifier = JwtVerifier.create({
    issuer: config.issuer,
    audience: null,
    customJwtCheck: ({ payload }) => {
      if (payload.token_use !== 'access') throw new WrongTokenError('Not an access token');
      if (payload.client_id !== config.clientId) throw new WrongTokenError('Access token of another client');
    },
  });
  const handedOver = config.jwks !== undefined;
  if (config.jwks !== undefined) verifier.cacheJwks(JSON.parse(config.jwks) as Jwks);
  return {
    verify: async (token) => {
      try {
        // With a handed-over key set, never a fetch: `verifySync` reads the cached key set only.
        const payload = handedOver ? verifier.verifySync(token) : await verifier.verify(token);
        const { username, jti, iat } = payload;
        if (typeof username !== 'string' || typeof jti !== 'string' || typeof iat !== 'number') return undefined;
        return { email: username, tokenId: jti, issuedAt: iat };
      } catch (error) {
        // A key set that cannot be fetched is our failure (a 500), not the caller's token.
        if (error instanceof FetchError) throw error;
        if (error instanceof JwtBaseError || error instanceof WrongTokenError) return undefined;
        throw error;
      }
    },
  };
}
