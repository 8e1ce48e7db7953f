import { runSimulation, type EvaluationResult } from '@cloud-copilot/iam-simulate';
import { Template } from 'aws-cdk-lib/assertions';
import { authorizerDescription, CrmStack } from '../../infra/cdk/stack';
import { eventFunctions, routes } from '../../lib/routes';
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

export type RolePolicy = { Version: '2012-10-17'; Statement: Json[] };

/**
 * The stack as `cdk synth` makes it (same feature flags, bundling skipped), and each function's
 * table statements (the items, the indexes, the change stream, the signing-secrets table), its
 * role's policies with the tables' ARNs resolved.
 */
export function synthesizedTablePolicies(): Map<string, RolePolicy> {
  const resources = Template.fromStack(new CrmStack(testApp(), 'Crm-iam', { stage: 'test' })).toJSON()
    .Resources as Record<string, Json>;
  const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);
  const { tableId, secretsTableId } = tablesOf(resources);

  const resolve = (value: unknown): string => {
    if (typeof value === 'string') return value;
    const json = value as Json;
    if (json['Fn::GetAtt']?.[0] === tableId && json['Fn::GetAtt'][1] === 'Arn') return tableArn;
    if (json['Fn::GetAtt']?.[0] === secretsTableId && json['Fn::GetAtt'][1] === 'Arn') return secretsTableArn;
    if (json['Fn::GetAtt']?.[0] === tableId && json['Fn::GetAtt'][1] === 'StreamArn') return tableStreamArn;
    if (json['Fn::Join']?.[0] === '') return (json['Fn::Join'][1] as unknown[]).map(resolve).join('');
    throw new Error(`unresolved resource ${JSON.stringify(value)}`);
  };
  const list = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

  const descriptions = new Map<string, string>([
    [authorizerDescription, 'authorizer'],
    ...routes.map((route) => [`${route.method} ${route.path}`, route.id] as [string, string]),
    ...eventFunctions.map((eventFunction) => [eventFunction.description, eventFunction.id] as [string, string]),
  ]);
  const policies = new Map<string, RolePolicy>();
  for (const [, fn] of ofType('AWS::Lambda::Function')) {
    const name = descriptions.get(fn.Properties.Description as string);
    if (name === undefined) continue;
    const roleId = fn.Properties.Role['Fn::GetAtt'][0] as string;
    const statements = ofType('AWS::IAM::Policy')
      .filter(([, policy]) => (policy.Properties.Roles as Json[]).some((role) => role.Ref === roleId))
      .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as Json[])
      .filter((statement) => list<string>(statement.Action).some((action) => action.startsWith('dynamodb:')))
      .map((statement) => ({ ...statement, Resource: list<unknown>(statement.Resource).map(resolve) }));
    policies.set(name, { Version: '2012-10-17', Statement: statements });
  }
  return policies;
}

export type Verdict = { result: EvaluationResult; ignoredContextKeys: string[] };

/**
 * IAM's answer to one request from a function whose only identity policy is `policy`, by
 * @cloud-copilot/iam-simulate. Without leading keys the request carries no `dynamodb:LeadingKeys`.
 */
export async function simulate(policy: RolePolicy, request: IamRequest): Promise<Verdict> {
  const secretsTarget = 'secrets-table';
  const resource =
    request.target === 'table'
      ? tableArn
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
        contextVariables: request.leadingKeys.length > 0 ? { 'dynamodb:LeadingKeys': request.leadingKeys } : {},
      },
    },
    {},
  );
  if (response.resultType !== 'single') throw new Error(`simulation failed: ${JSON.stringify(response)}`);
  return { result: response.overallResult, ignoredContextKeys: response.result.ignoredContextKeys ?? [] };
}
