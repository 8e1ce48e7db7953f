import { NestedStack } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { DeployedRoute } from '../route-grants';
import { routeFunction, type RouteFunctionSettings } from '../route-functions';
import { isSettingsRoute } from '../settings-routes';
import { ExportBucket } from './export-bucket';
import type { RouteFunction } from './route-function';

export type SettingsFunctionsProps = RouteFunctionSettings & {
  /** The routes of the settings API, in route-list order (`isSettingsRoute`). */
  routes: readonly DeployedRoute[];
};

/**
 * The functions of the settings API, each with its role, policy and log group, in a nested stack of their own:
 * about forty of them would bring the main template near CloudFormation's limit of 500 resources per template
 * ("Understand CloudFormation quotas", Resources, https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/cloudformation-limits.html,
 * whose tuning strategy is nested stacks). Every route whose credential is one of `settingsCredentials` lands
 * here, from the route list alone; test/infra/template-size.test.ts holds the counts.
 *
 * Their API Gateway methods, resources and invoke permissions stay in the main stack with the RestApi: there
 * the stage's deployment is hashed from every method and depends on them, so a changed or added settings
 * method is deployed with the stack. A method added to an imported RestApi in another stack is left out of
 * the deployment (aws/aws-cdk#12589 "No Deployment for imported RestAPI after adding resources or methods",
 * aws/aws-cdk#13526), and its stage keeps serving the API as it was. The cross-stack references (the table,
 * the user pool in; each function's ARN and name out) are parameters and outputs the CDK writes itself:
 * "Cross references of resource attributes between the parent stack and the nested stack will automatically
 * be translated to stack parameters and outputs" (NestedStack, AWS CDK API reference,
 * https://docs.aws.amazon.com/cdk/api/v2/docs/aws-cdk-lib.NestedStack.html).
 */
export class SettingsFunctions extends NestedStack {
  /** Each route's function, by route id. */
  readonly functions: ReadonlyMap<string, RouteFunction>;

  constructor(scope: Construct, id: string, props: SettingsFunctionsProps) {
    super(scope, id, { description: 'CRM settings API: one function per route (docs/api.md#settings-api)' });
    const outside = props.routes.filter((route) => !isSettingsRoute(route));
    if (outside.length > 0)
      throw new Error(`Routes outside the settings API: ${outside.map((route) => route.id).join(', ')}`);
    // The export bucket beside the only functions that use it: no reference crosses stacks, and the main template keeps
    // its resource budget (test/infra/template-size.test.ts).
    const exports = props.routes.some((route) => route.keepsExports) ? new ExportBucket(this, 'Exports') : undefined;
    this.functions = new Map(
      props.routes.map((route) => [
        route.id,
        routeFunction(this, route, { ...props, ...(exports ? { exports } : {}) }),
      ]),
    );
  }
}
