import type { PolicyDocument } from 'aws-lambda';

/**
 * The resource the authorizer's policy allows: every method and path of the stage it was called
 * for, `arn:aws:execute-api:{region}:{account}:{apiId}/{stage}/*\/*`, built from the first parts of
 * the method ARN, so the answer's size no longer grows with the request path.
 *
 * The method ARN is `arn:aws:execute-api:{region}:{account}:{api-id}/{stage}/{method}/{resource path}`
 * ("Amazon API Gateway quotas", https://docs.aws.amazon.com/apigateway/latest/developerguide/limits.html;
 * "Control access to an API with IAM permissions",
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/permissions.html). Results are never cached
 * (`resultsCacheTtl: 0`, docs/architecture.md), so this policy serves this one request only: the
 * wildcard does not widen access across requests, and the decision stays in the context.
 *
 * An ARN of another form (never sent by API Gateway) is allowed as is, as before.
 */
export function stageWideResource(methodArn: string): string {
  const match = /^(arn:[^:]+:execute-api:[^:]+:[^:]+:[^/]+\/[^/]+)\/[^/]+\//.exec(methodArn);
  return match ? `${match[1]}/*/*` : methodArn;
}

/** Always Allow (docs/architecture.md, "Authorizer contract"): the decision travels in the context. */
export function allowStagePolicy(methodArn: string): PolicyDocument {
  return {
    Version: '2012-10-17',
    Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: stageWideResource(methodArn) }],
  };
}
