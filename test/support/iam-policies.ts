import { runSimulation, type EvaluationResult } from '@cloud-copilot/iam-simulate';
import { NestedStack, type CfnResource, type Environment } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { authorizerDescription, CrmStack } from '../../infra/cdk/stack';
import { eventFunctions, deployedRoutes as routes, type DeployedRoute as Route } from '../../infra/cdk/route-grants';
import { testApp } from './cdk-app';
import type { IamRequest } from './recorded-calls';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const accountId = '123456789012';
/** The table's ARN as the simulator sees it: the template's `Fn::GetAtt` of the table, made concrete. */
export const tableArn = `arn:aws:dynamodb:eu-west-3:${accountId}:table/crm-iam-test`;

/** The function names of the synthesized stack's API: `authorizer`, or a route id. */
export const functionNames = ['authorizer', ...routes.map((route) => route.id)];

/** The outbound-event functions, by their id in the route list's `eventFunctions`. */
export const eventFunctionNames: string[] = eventFunctions.map((eventFunction) => eventFunction.id);

/** The stream's ARN: the table's with the stream's creation time, as DynamoDB names it. */
export const tableStreamArn = `${tableArn}/stream/2026-01-01T00:00:00.000`;

/** The signing-secrets table's ARN as the simulator sees it (docs/adr/0012-signing-secrets-table.md). */
export const secretsTableArn = `arn:aws:dynamodb:eu-west-3:${accountId}:table/crm-iam-test-secrets`;

/** The two tables of the template: the main one has the change stream, the signing-secrets one none. */
export function tablesOf(resources: Record<string, Json>): { tableId: string; secretsTableId: string } {
  const tables = Object.entries(resources).filter(([, resource]) => resource.Type === 'AWS::DynamoDB::Table');
  const streamed = tables.filter(([, table]) => table.Properties.StreamSpecification !== undefined);
  const unstreamed = tables.filter(([, table]) => table.Properties.StreamSpecification === undefined);
  if (tables.length !== 2 || streamed.length !== 1 || unstreamed.length !== 1) {
    throw new Error('expected two tables, one with a change stream and one without');
  }
  return { tableId: streamed[0]![0], secretsTableId: unstreamed[0]![0] };
}

/** The members' user pool's ARN as the simulator sees it, and another pool's (docs/adr/0013-member-sign-in.md). */
export const userPoolArn = `arn:aws:cognito-idp:eu-west-3:${accountId}:userpool/eu-west-3_Members1`;
export const otherUserPoolArn = `arn:aws:cognito-idp:eu-west-3:${accountId}:userpool/eu-west-3_Another1`;

export type RolePolicy = { Version: '2012-10-17'; Statement: Json[] };

/** A template's resources, and how its parameters resolve in the main template (none for the main one). */
type SynthesizedTemplate = { resources: Record<string, Json>; parameters: Record<string, unknown> };

/**
 * The main template and the settings API's nested one (infra/cdk/constructs/settings-functions.ts), each nested
 * parameter with the main template's value the CDK passes it.
 */
function synthesizedTemplates(routeList: readonly Route[], env: Environment | undefined): SynthesizedTemplate[] {
  const stack = new CrmStack(testApp(), 'Crm-iam', { stage: 'test', routes: routeList, ...(env ? { env } : {}) });
  const main = Template.fromStack(stack).toJSON().Resources as Record<string, Json>;
  const nested = stack.node
    .findAll()
    .filter((construct) => NestedStack.isNestedStack(construct))
    .map((construct) => construct as NestedStack);
  return [
    { resources: main, parameters: {} },
    ...nested.map((nestedStack) => {
      const logicalId = stack.resolve((nestedStack.nestedStackResource as CfnResource).logicalId) as string;
      return {
        resources: Template.fromStack(nestedStack).toJSON().Resources as Record<string, Json>,
        parameters: (main[logicalId]!.Properties.Parameters ?? {}) as Record<string, unknown>,
      };
    }),
  ];
}

/**
 * The stack as `cdk synth` makes it (same feature flags, bundling skipped), built from `routeList`, for `env` (none:
 * an account and a region unknown), and each function's statements on the tables (the items, the indexes, the change
 * stream, the signing-secrets table) and on the members' user pool, its role's policies with the ARNs resolved,
 * whichever template the function is in.
 */
export function synthesizedTablePolicies(
  routeList: readonly Route[] = routes,
  env?: Environment,
): Map<string, RolePolicy> {
  const templates = synthesizedTemplates(routeList, env);
  const mainResources = templates[0]!.resources;
  const { tableId, secretsTableId } = tablesOf(mainResources);
  const [poolId] = Object.entries(mainResources).find(([, resource]) => resource.Type === 'AWS::Cognito::UserPool')!;
  const list = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

  const descriptions = new Map<string, string>([
    [authorizerDescription, 'authorizer'],
    ...routeList.map((route) => [`${route.method} ${route.path}`, route.id] as [string, string]),
    ...eventFunctions.map((eventFunction) => [eventFunction.description, eventFunction.id] as [string, string]),
  ]);
  const policies = new Map<string, RolePolicy>();
  for (const { resources, parameters } of templates) {
    const resolve = (value: unknown): string => {
      if (typeof value === 'string') return value;
      const json = value as Json;
      if (typeof json.Ref === 'string' && json.Ref in parameters) return resolve(parameters[json.Ref]);
      if (json['Fn::GetAtt']?.[0] === tableId && json['Fn::GetAtt'][1] === 'Arn') return tableArn;
      if (json['Fn::GetAtt']?.[0] === secretsTableId && json['Fn::GetAtt'][1] === 'Arn') return secretsTableArn;
      if (json['Fn::GetAtt']?.[0] === tableId && json['Fn::GetAtt'][1] === 'StreamArn') return tableStreamArn;
      if (json['Fn::GetAtt']?.[0] === poolId && json['Fn::GetAtt'][1] === 'Arn') return userPoolArn;
      if (json['Fn::Join']?.[0] === '') return (json['Fn::Join'][1] as unknown[]).map(resolve).join('');
      throw new Error(`unresolved resource ${JSON.stringify(value)}`);
    };
    const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);
    for (const [, fn] of ofType('AWS::Lambda::Function')) {
      const name = descriptions.get(fn.Properties.Description as string);
      if (name === undefined) continue;
      const roleId = fn.Properties.Role['Fn::GetAtt'][0] as string;
      const statements = ofType('AWS::IAM::Policy')
        .filter(([, policy]) => (policy.Properties.Roles as Json[]).some((role) => role.Ref === roleId))
        .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as Json[])
        .filter((statement) =>
          list<string>(statement.Action).some(
            (action) => action.startsWith('dynamodb:') || action.startsWith('cognito-idp:'),
          ),
        )
        .map((statement) => ({ ...statement, Resource: list<unknown>(statement.Resource).map(resolve) }));
      policies.set(name, { Version: '2012-10-17', Statement: statements });
    }
  }
  return policies;
}

export type Verdict = { result: EvaluationResult; ignoredContextKeys: string[] };

/**
 * The verdicts already simulated in this test file, by everything a simulation reads: the flows record the same
 * request many times over (a quarter of the requests of test/infra/iam-least-privilege.test.ts are repeats), and
 * the simulator answers the same to the same question.
 */
const verdicts = new Map<string, Map<string, Promise<Verdict>>>();

/**
 * IAM's answer to one request from a function whose only identity policy is `policy`, by
 * @cloud-copilot/iam-simulate. Without leading keys the request carries no `dynamodb:LeadingKeys`, without
 * `returnValues` no `dynamodb:ReturnValues`.
 */
export function simulate(policy: RolePolicy, request: IamRequest): Promise<Verdict> {
  const policyKey = JSON.stringify(policy);
  const ofPolicy = verdicts.get(policyKey) ?? new Map<string, Promise<Verdict>>();
  verdicts.set(policyKey, ofPolicy);
  const { action, target, leadingKeys, returnValues } = request;
  const key = JSON.stringify([action, target, leadingKeys, returnValues]);
  let verdict = ofPolicy.get(key);
  if (verdict === undefined) {
    verdict = simulated(policy, request);
    ofPolicy.set(key, verdict);
  }
  return verdict;
}

async function simulated(policy: RolePolicy, request: IamRequest): Promise<Verdict> {
  const secretsTarget = 'secrets-table';
  const userPools: Record<string, string> = { 'user-pool': userPoolArn, 'other-user-pool': otherUserPoolArn };
  const resource =
    request.target === 'table'
      ? tableArn
      : request.target in userPools
        ? userPools[request.target]!
        : request.target.startsWith(secretsTarget)
          ? `${secretsTableArn}${request.target.slice(secretsTarget.length)}`
          : `${tableArn}/${request.target}`;
  const response = await runSimulation(
    {
      identityPolicies: [{ name: 'function-role', policy }],
      serviceControlPolicies: [],
      resourceControlPolicies: [],
      request: {
        principal: `arn:aws:iam::${accountId}:role/function-role`,
        action: request.action,
        resource: { resource, accountId },
        contextVariables: {
          ...(request.leadingKeys.length > 0 ? { 'dynamodb:LeadingKeys': request.leadingKeys } : {}),
          ...(request.returnValues === undefined ? {} : { 'dynamodb:ReturnValues': request.returnValues }),
        },
      },
    },
    {},
  );
  if (response.resultType !== 'single') throw new Error(`simulation failed: ${JSON.stringify(response)}`);
  return { result: response.overallResult, ignoredContextKeys: response.result.ignoredContextKeys ?? [] };
}
