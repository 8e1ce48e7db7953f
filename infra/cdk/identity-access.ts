import type { IUserPool } from 'aws-cdk-lib/aws-cognito';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IdentityAction } from './route-grants';

/**
 * Exactly the user-pool actions of one function (the route list's `identityActions`), on the members' pool alone:
 * "Resource types defined by Amazon Cognito User Pools": `userpool`, `arn:${Partition}:cognito-idp:${Region}:${Account}:userpool/${UserPoolId}`,
 * the resource of every Admin* action and of DescribeUserPoolClient ("Actions, resources, and condition keys for Amazon
 * Cognito User Pools", https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazoncognitouserpools.html).
 * No action, no statement: the function has no permission on the pool at all. The calls the service signs with
 * the client secret (InitiateAuth, RespondToAuthChallenge, ChangePassword, ForgotPassword, ConfirmForgotPassword)
 * are not authorized by IAM and need none.
 */
export function identityAccessStatements(userPool: IUserPool, actions: readonly IdentityAction[]): PolicyStatement[] {
  if (actions.length === 0) return [];
  return [
    new PolicyStatement({
      actions: [...new Set(actions)].map((action) => `cognito-idp:${action}`),
      resources: [userPool.userPoolArn],
    }),
  ];
}
