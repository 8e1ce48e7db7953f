type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The settings page's deployments of its files (infra/cdk/constructs/settings-page.ts), in a template's resources. */
const pageDeployments = (resources: Record<string, Json>): Json[] =>
  Object.values(resources).filter((resource) => resource.Type === 'Custom::CDKBucketDeployment');

/**
 * The CDK's own bucket-deployment function, which the page's deployments share: it runs only while CloudFormation
 * deploys them, and is none of the service's functions (no route, no event, no Powertools, Python).
 */
export const deploymentHandlerIds = (resources: Record<string, Json>): Set<string> =>
  new Set(
    pageDeployments(resources).map((deployment) => deployment.Properties.ServiceToken['Fn::GetAtt'][0] as string),
  );

/** The bucket the page's files are deployed to. */
export const pageBucketIds = (resources: Record<string, Json>): Set<string> =>
  new Set(pageDeployments(resources).map((deployment) => deployment.Properties.DestinationBucketName.Ref as string));
