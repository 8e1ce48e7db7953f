import { NestedStack, Stage, type Environment, type IPolicyValidationContext } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { nagPacks } from '../../infra/cdk/nag';
import { pageResourcePaths } from '../../infra/cdk/settings-page';
import { isSettingsRoute } from '../../infra/cdk/settings-routes';
import { CrmStack } from '../../infra/cdk/stack';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { CfnGuardValidator } from '@cdklabs/cdk-validator-cfnguard';
import { guardRuleExclusions, resourceSchemaFindings } from '../../infra/cdk/validators';
import { settingsPathPattern, settingsPathSegments, settingsRateLimit, wafRules } from '../../infra/cdk/waf-rules';
import { deployedRoutes as routes, type DeployedRoute as Route } from '../../infra/cdk/route-grants';
import { testApp } from '../support/cdk-app';
import { settingsProbe, signInProbe } from '../support/settings-probes';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * CloudFormation's quotas per template ("Understand CloudFormation quotas",
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/cloudformation-limits.html): 500 resources,
 * 200 outputs, 200 parameters. The stack keeps 70 resources free for what is not counted yet (a fifth until the
 * follow-up functions took 21: the main template holds 415 today, 427 with the probes below). Every method of the
 * API, and its path's resource, lives in the main template whatever stack holds its function: a person's rights' five
 * routes took the last 7 under 430. The next routes need the settings API's methods out of the main template (a
 * nested stack of their own, deployed with the API's deployment), which this budget will say.
 */
const quota = { resources: 500, outputs: 200, parameters: 200 } as const;
const resourceBudget = 430;
/** docs/api.md#settings-api: about forty settings routes in all; the nested stack must still hold them. */
const expectedSettingsRoutes = 40;
const projectedCeiling = 450;

/**
 * `nested`: the settings API's nested stack (infra/cdk/constructs/settings-functions.ts); `background`: the others (the
 * erasures' background, infra/cdk/constructs/erasure.ts), each under the same quotas.
 */
type Synthesized = { stack: CrmStack; parent: Json; nested: Json | undefined; background: Json[] };

function synthesize(routeList: readonly Route[], env?: Environment): Synthesized {
  const stack = new CrmStack(testApp(), 'Crm-size', { stage: 'test', routes: routeList, ...(env ? { env } : {}) });
  const nestedStacks = stack.node
    .findAll()
    .filter((construct) => NestedStack.isNestedStack(construct))
    .map((construct) => construct as NestedStack);
  const settings = nestedStacks.filter((nested) => nested.node.id === 'SettingsApi');
  expect(settings.length).toBeLessThanOrEqual(1);
  return {
    stack,
    parent: Template.fromStack(stack).toJSON(),
    nested: settings[0] && Template.fromStack(settings[0]).toJSON(),
    background: nestedStacks
      .filter((nested) => !settings.includes(nested))
      .map((nested) => Template.fromStack(nested).toJSON()),
  };
}

const count = (template: Json | undefined, section: 'Resources' | 'Outputs' | 'Parameters'): number =>
  Object.keys(template?.[section] ?? {}).length;
const resourcesOf = (template: Json | undefined): Record<string, Json> => template?.Resources ?? {};
const types = (template: Json | undefined): string[] =>
  Object.values(resourcesOf(template))
    .map((resource) => resource.Type as string)
    .sort();
/** What `after` holds more than `before`, by resource type. */
function addedTypes(before: Json | undefined, after: Json | undefined): string[] {
  const left = [...types(before)];
  return types(after).filter((type) => {
    const at = left.indexOf(type);
    if (at < 0) return true;
    left.splice(at, 1);
    return false;
  });
}

function functionIdsByDescription(template: Json | undefined): Map<string, string> {
  return new Map(
    Object.entries(resourcesOf(template))
      .filter(([, resource]) => resource.Type === 'AWS::Lambda::Function')
      .map(([id, resource]) => [resource.Properties.Description as string, id]),
  );
}
const description = (route: Route) => `${route.method} ${route.path}`;

/** The Control Tower rule file of lambda_inside_vpc_check, one the stack's exclusions name (validators.ts). */
const vpcRuleFile = join(
  dirname(createRequire(import.meta.url).resolve('@cdklabs/cdk-validator-cfnguard')),
  '../rules/control-tower/cfn-guard/lambda/ct-lambda-pr-3.guard',
);

const today = synthesize(routes);
/** The route list with one sign-in route and one, then two, workspace settings routes of its own. */
const withOne = synthesize([...routes, signInProbe, settingsProbe(1)]);
const withTwo = synthesize([...routes, signInProbe, settingsProbe(1), settingsProbe(2)]);

describe('every template stays well under CloudFormation’s quotas', () => {
  test.each([
    ['the route list as it is', today],
    ['with settings routes', withTwo],
  ])('%s: resources, outputs and parameters per template', (_, synthesized) => {
    for (const template of [synthesized.parent, synthesized.nested, ...synthesized.background].filter(Boolean)) {
      expect(count(template, 'Resources')).toBeLessThanOrEqual(resourceBudget);
      expect(count(template, 'Outputs')).toBeLessThan(quota.outputs);
      expect(count(template, 'Parameters')).toBeLessThan(quota.parameters);
    }
    expect(resourceBudget).toBeLessThan(quota.resources);
  });

  test('without a settings route there is no nested stack: CloudFormation refuses a template without resources', () => {
    const hasSettingsRoute = routes.some(isSettingsRoute);
    expect(today.nested !== undefined).toBe(hasSettingsRoute);
    // The erasures' background has a nested stack of its own whatever the routes.
    expect(types(today.parent).filter((type) => type === 'AWS::CloudFormation::Stack')).toHaveLength(
      hasSettingsRoute ? 2 : 1,
    );
    expect(today.background).toHaveLength(1);
  });
});

describe('the settings API’s functions live in the nested stack, every method with the RestApi', () => {
  const probed = [...routes, signInProbe, settingsProbe(1), settingsProbe(2)];

  test('each route whose credential is member-token or none has its function in the nested stack, the others in the main one', () => {
    const inParent = functionIdsByDescription(withTwo.parent);
    const inNested = functionIdsByDescription(withTwo.nested);
    for (const route of probed) {
      expect({
        route: route.id,
        nested: inNested.has(description(route)),
        parent: inParent.has(description(route)),
      }).toEqual({
        route: route.id,
        nested: isSettingsRoute(route),
        parent: !isSettingsRoute(route),
      });
    }
    expect(inNested.size).toBe(probed.filter(isSettingsRoute).length);
  });

  test('the nested stack holds functions, their roles, policies and log groups, the export bucket, nothing of API Gateway', () => {
    expect([...new Set(types(withTwo.nested))]).toEqual([
      'AWS::IAM::Policy',
      'AWS::IAM::Role',
      'AWS::Lambda::Function',
      'AWS::Logs::LogGroup',
      // The export routes' bucket, beside them (infra/cdk/constructs/settings-functions.ts).
      'AWS::S3::Bucket',
      'AWS::S3::BucketPolicy',
    ]);
  });

  test('every route is a method of the one RestApi in the main stack, a settings one invoking its nested function', () => {
    const methods = Object.values(resourcesOf(withTwo.parent)).filter((r) => r.Type === 'AWS::ApiGateway::Method');
    // And the settings page's two, which read S3 (test/infra/settings-page.test.ts).
    expect(methods).toHaveLength(probed.length + Object.keys(pageResourcePaths).length);
    const [nestedId] = Object.entries(resourcesOf(withTwo.parent)).find(
      ([id, resource]) => resource.Type === 'AWS::CloudFormation::Stack' && id.startsWith('SettingsApi'),
    )!;
    const nestedFunctions = functionIdsByDescription(withTwo.nested);
    const outputs = Object.entries(withTwo.nested!.Outputs as Record<string, Json>);
    for (const route of probed.filter(isSettingsRoute)) {
      const functionId = nestedFunctions.get(description(route))!;
      const [arnOutput] = outputs.find(
        ([, output]) => JSON.stringify(output.Value) === JSON.stringify({ 'Fn::GetAtt': [functionId, 'Arn'] }),
      )!;
      const invoking = methods.filter((method) =>
        JSON.stringify(method.Properties.Integration.Uri).includes(
          JSON.stringify({ 'Fn::GetAtt': [nestedId, `Outputs.${arnOutput}`] }),
        ),
      );
      expect({ route: route.id, methods: invoking.length }).toEqual({ route: route.id, methods: 1 });
      expect(invoking[0]!.Properties.HttpMethod).toBe(route.method);
    }
  });

  test('the stage’s deployment depends on every method, the nested ones’ included', () => {
    const resources = resourcesOf(withTwo.parent);
    const deployments = Object.values(resources).filter((r) => r.Type === 'AWS::ApiGateway::Deployment');
    expect(deployments).toHaveLength(1);
    const methodIds = Object.keys(resources).filter((id) => resources[id]!.Type === 'AWS::ApiGateway::Method');
    expect([...(deployments[0]!.DependsOn as string[])].filter((id) => methodIds.includes(id)).sort()).toEqual(
      methodIds.sort(),
    );
  });

  test('the settings functions know the pool and the service’s client; the Prospect API and webhook functions do not', () => {
    const parentFunctions = Object.values(resourcesOf(withTwo.parent)).filter(
      (r) => r.Type === 'AWS::Lambda::Function',
    );
    const nestedFunctions = Object.values(resourcesOf(withTwo.nested)).filter(
      (r) => r.Type === 'AWS::Lambda::Function',
    );
    for (const fn of nestedFunctions) {
      expect(Object.keys(fn.Properties.Environment.Variables as Json)).toEqual(
        expect.arrayContaining(['USER_POOL_ID', 'USER_POOL_CLIENT_ID']),
      );
    }
    const routeDescriptions = routes.filter((route) => !isSettingsRoute(route)).map(description);
    for (const fn of parentFunctions.filter((f) => routeDescriptions.includes(f.Properties.Description as string))) {
      expect(fn.Properties.Environment.Variables).not.toHaveProperty('USER_POOL_ID');
    }
  });

  test('the CDK itself reports no warning or error, the nested stack’s constructs included', () => {
    // A nested stack is no artifact of its own: its constructs' messages are in the main stack's.
    const messages = Annotations.fromStack(withTwo.stack);
    expect(messages.findError('*', Match.anyValue())).toEqual([]);
    expect(messages.findWarning('*', Match.anyValue())).toEqual([]);
  });

  test('both templates hold to the CloudFormation registry schemas (the nested stack, the user pool, the web ACL rule)', () => {
    expect(resourceSchemaFindings(withTwo.parent)).toEqual([]);
    expect(resourceSchemaFindings(withTwo.nested!)).toEqual([]);
  });

  /**
   * The whole rule set runs where the user meets it: `cdk synth` of the app, whose exit code says whether a template
   * breaks a rule (test/infra/synth.test.ts; about 20 s of CPU per run). Here, what that run cannot show: the
   * exclusion of the VPC rule is what keeps the nested stack's functions from being its findings.
   */
  test('without its exclusion, the VPC rule would find exactly the nested stack’s functions', () => {
    // The template withTwo's synthesis wrote (Template.fromStack synthesized its app once; this is that assembly).
    const { stack } = withTwo;
    const [nestedStack] = stack.node
      .findAll()
      .filter((construct) => NestedStack.isNestedStack(construct) && construct.node.id === 'SettingsApi');
    const app = Stage.of(stack)!;
    const assembly = app.synth();
    const nestedTemplatePath = join(assembly.directory, (nestedStack as NestedStack).templateFile);
    const context: IPolicyValidationContext = {
      templatePaths: [nestedTemplatePath],
      stackTemplates: [
        {
          stackConstructPath: stack.node.path,
          templatePath: nestedTemplatePath,
          accountId: undefined,
          region: undefined,
        },
      ],
      appConstruct: app,
    };
    // The rule's file alone: guard evaluates each rule file apart, so the others would add only their own findings.
    const unexcluded = new CfnGuardValidator({ controlTowerRulesEnabled: false, rules: [vpcRuleFile] }).validate(
      context,
    );
    const nestedFunctionIds = [...functionIdsByDescription(withTwo.nested).values()];
    expect(
      unexcluded.violations
        .filter((v) => v.ruleName === 'lambda_inside_vpc_check')
        .flatMap((v) => v.violatingResources.map((r) => r.resourceLogicalId))
        .sort(),
    ).toEqual(nestedFunctionIds.sort());
    expect(guardRuleExclusions).toHaveProperty(['ct-lambda-pr-3']);
  });

  /** As `cdk synth` builds it without credentials (a region), and as `cdk deploy` does (an account and a region). */
  const deployments: [string, Synthesized][] = [
    ['no account, no region', withTwo],
    ['a region alone', synthesize(probed, { region: 'eu-west-3' })],
    ['an account and a region', synthesize(probed, { account: '123456789012', region: 'eu-west-3' })],
  ];

  test.each(
    deployments.flatMap(([deployment, synthesized]) =>
      nagPacks().map((pack) => [pack.readPackName, deployment, synthesized, pack] as const),
    ),
  )('%s, %s: no finding left unacknowledged with the nested stack and the user pool', (_, __, synthesized, pack) => {
    const findings = pack
      .validateScope(synthesized.stack)
      .violations.map((v) => `${v.ruleName} ${v.violatingResources.map((r) => r.constructPath).join(', ')}`);
    expect(findings).toEqual([]);
  });

  test.each(deployments.slice(1))('%s: both templates hold to the registry schemas', (_, synthesized) => {
    expect(resourceSchemaFindings(synthesized.parent)).toEqual([]);
    expect(resourceSchemaFindings(synthesized.nested!)).toEqual([]);
  });
});

describe('projection: about forty settings routes still fit', () => {
  const settingsRoutesNow = [...routes, signInProbe, settingsProbe(1), settingsProbe(2)].filter(isSettingsRoute).length;
  const perRoute = {
    nested: count(withTwo.nested, 'Resources') - count(withOne.nested, 'Resources'),
    parent: count(withTwo.parent, 'Resources') - count(withOne.parent, 'Resources'),
  };

  test('one more settings route costs its function, role, policy and log group in the nested stack', () => {
    expect(addedTypes(withOne.nested, withTwo.nested)).toEqual([
      'AWS::IAM::Policy',
      'AWS::IAM::Role',
      'AWS::Lambda::Function',
      'AWS::Logs::LogGroup',
    ]);
  });

  test('and its method, its path’s resource, its invoke permission and its throttle alarm in the main stack', () => {
    expect(addedTypes(withOne.parent, withTwo.parent)).toEqual([
      'AWS::ApiGateway::Method',
      'AWS::ApiGateway::Resource',
      'AWS::CloudWatch::Alarm',
      'AWS::Lambda::Permission',
    ]);
  });

  test(`${expectedSettingsRoutes} settings routes: each template under ${projectedCeiling} resources`, () => {
    const remaining = expectedSettingsRoutes - settingsRoutesNow;
    const projected = {
      nested: count(withTwo.nested, 'Resources') + remaining * perRoute.nested,
      parent: count(withTwo.parent, 'Resources') + remaining * perRoute.parent,
    };
    expect(projected.nested).toBeLessThan(projectedCeiling);
    expect(projected.parent).toBeLessThan(projectedCeiling);
    // Outputs: each settings function's ARN and name leave the nested stack for the methods and the alarms.
    const outputsPerRoute = count(withTwo.nested, 'Outputs') - count(withOne.nested, 'Outputs');
    expect(count(withTwo.nested, 'Outputs') + remaining * outputsPerRoute).toBeLessThan(quota.outputs);
  });
});

describe('the web ACL holds each address to one member’s limit on the settings paths', () => {
  const probed = [...routes, signInProbe, settingsProbe(1), settingsProbe(2)];
  const ruleOf = (synthesized: Synthesized): Json | undefined => {
    const [webAcl] = Object.values(resourcesOf(synthesized.parent)).filter((r) => r.Type === 'AWS::WAFv2::WebACL');
    return (webAcl!.Properties.Rules as Json[]).find((rule) => rule.Name === wafRules.settingsRateLimit.name);
  };
  /** A path as a caller writes it: every `{parameter}` given a value. */
  const concrete = (path: string) => path.replace(/\{[^}]+\}/g, '0b7c3a52-5f7e-4c1e-9d0a-6f1f2b3c4d5e');

  test('a rate-based rule per address, after the others, answering a JSON 429 with Retry-After', () => {
    expect(ruleOf(withTwo)).toMatchObject({
      Priority: 4,
      Statement: {
        RateBasedStatement: {
          AggregateKeyType: 'IP',
          Limit: settingsRateLimit.limit,
          EvaluationWindowSec: settingsRateLimit.evaluationWindowSec,
          ScopeDownStatement: {
            RegexMatchStatement: {
              FieldToMatch: { UriPath: {} },
              RegexString: settingsPathPattern(settingsPathSegments(probed)),
              TextTransformations: [{ Priority: 0, Type: 'URL_DECODE' }],
            },
          },
        },
      },
      Action: {
        Block: {
          CustomResponse: { ResponseCode: 429, ResponseHeaders: [{ Name: 'Retry-After', Value: '60' }] },
        },
      },
    });
    expect(settingsRateLimit).toEqual({ limit: 120, evaluationWindowSec: 60 });
  });

  test('its paths are every settings route’s, behind the stage or not, and no other route’s', () => {
    const pattern = new RegExp(
      ruleOf(withTwo)!.Statement.RateBasedStatement.ScopeDownStatement.RegexMatchStatement.RegexString as string,
    );
    for (const route of probed) {
      for (const path of [concrete(route.path), `/prod${concrete(route.path)}`, `/prod${concrete(route.path)}/`]) {
        expect({ path, counted: pattern.test(path) }).toEqual({ path, counted: isSettingsRoute(route) });
      }
    }
  });

  test('no rule without a settings route; a route outside the settings API under their paths fails synthesis', () => {
    expect(ruleOf(today) !== undefined).toBe(routes.some(isSettingsRoute));
    const intruder: Route = { ...routes[0]!, id: 'intruder', path: '/workspaces/{workspace_id}/pipelines' };
    expect(() => settingsPathSegments([...probed, intruder])).toThrow(/intruder/);
  });
});
