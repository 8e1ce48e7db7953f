import {
  CognitoIdentityProviderClient,
  DescribeUserPoolClientCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { mockClient } from 'aws-sdk-client-mock';
import type { IdentityConfig } from '../../lib/identity/config';
import { createCognitoIdentityProvider } from '../../lib/identity/cognito';

/** The configuration of a user pool on AWS (no local endpoint, no pool file): the adapter as deployed. */
export const awsPoolConfig: IdentityConfig = {
  userPoolId: 'eu-west-3_pool',
  clientId: 'client',
  region: 'eu-west-3',
  issuer: 'https://cognito-idp.eu-west-3.amazonaws.com/eu-west-3_pool',
  endpoint: undefined,
  jwks: undefined,
  localPoolFile: undefined,
};

/**
 * The Cognito adapter on a client whose answers the test sets (aws-sdk-client-mock): what Cognito answers and
 * cognito-local cannot be made to, injected as faults. The app client's secret is answered, as the adapter reads it
 * before its first signed call.
 */
export function mockedAwsPool() {
  const client = new CognitoIdentityProviderClient({ region: awsPoolConfig.region });
  const mock = mockClient(client);
  mock.on(DescribeUserPoolClientCommand).resolves({ UserPoolClient: { ClientSecret: 'the-secret' } });
  return { client, mock, identity: createCognitoIdentityProvider(awsPoolConfig, client) };
}
