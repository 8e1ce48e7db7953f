import { App, Stack, Validations } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { Table, AttributeType } from 'aws-cdk-lib/aws-dynamodb';
import {
  accessLogFields,
  expectedActiveWorkspaces,
  methodThrottleOf,
  methodThrottling,
  pageThrottling,
  stageThrottling,
} from '../../infra/cdk/constructs/crm-api';
import {
  gatewayResponses,
  gatewayResponseTemplate,
  renderGatewayTemplate,
  type GatewayResponseType,
} from '../../infra/cdk/gateway-responses';
import {
  anonymousRateLimit,
  contentLengthPattern,
  credentialFreeRoutes,
  credentialPlaces,
  exactPathsPattern,
  ipRateLimit,
  leadPathPattern,
  settingsRateLimit,
  wafResponseBodies,
  wafRules,
} from '../../infra/cdk/waf-rules';
import { webhookToken } from '../../lib/auth/authorize';
import { requestLimit } from '../../lib/storage/rate-limit';
import { nagPacks } from '../../infra/cdk/nag';
import { pageResourcePaths } from '../../infra/cdk/settings-page';
import { authorizerDescription, authorizerTableActions, CrmStack } from '../../infra/cdk/stack';
import { SingleTable } from '../../infra/cdk/constructs/single-table';
import { messages } from '../../lib/messages';
import { deletableLeadingKeys, tableAccessStatements } from '../../infra/cdk/table-access';
import { functionTimeoutSeconds, type Credential } from '../../lib/routes';
import {
  eventFunctions,
  type TableAction,
  type TableKeys,
  deployedRouteById as routeById,
  deployedRoutes as routes,
  type DeployedRoute as Route,
} from '../../infra/cdk/route-grants';
import { erasedPrefixes, keys } from '../../lib/storage/table-items';
import { secretsTableDefinition } from '../../infra/cdk/secrets-table-definition';
import { projectionOf, tableDefinition } from '../../infra/cdk/table-definition';
import { testApp } from '../support/cdk-app';
import { tablesOf } from '../support/iam-policies';
import { flattenedTemplate } from '../support/nested-templates';
import { deploymentHandlerIds, pageBucketIds } from '../support/settings-page-resources';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const stack = new CrmStack(testApp(), 'Crm-test', { stage: 'test' });
const template = Template.fromStack(stack);
/** The settings API's functions, roles and policies are in a nested stack: read as one template. */
const resources = flattenedTemplate(stack).Resources as Record<string, Json>;

const ofType = (type: string): [string, Json][] => Object.entries(resources).filter(([, r]) => r.Type === type);
const { tableId, secretsTableId } = tablesOf(resources);
const tableArn = { 'Fn::GetAtt': [tableId, 'Arn'] };
const secretsTableArn = { 'Fn::GetAtt': [secretsTableId, 'Arn'] };
const routeDescription = (route: (typeof routes)[number]) => `${route.method} ${route.path}`;

function functionIdByDescription(description: string): string {
  const found = ofType('AWS::Lambda::Function').filter(([, fn]) => fn.Properties.Description === description);
  expect(found).toHaveLength(1);
  return found[0]![0];
}

/** Every IAM statement attached to a function's role. */
function statementsOf(functionId: string): Json[] {
  const roleId = resources[functionId]!.Properties.Role['Fn::GetAtt'][0] as string;
  return ofType('AWS::IAM::Policy')
    .filter(([, policy]) => (policy.Properties.Roles as Json[]).some((role) => role.Ref === roleId))
    .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as Json[]);
}

const list = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);
const dynamoActions = (statements: Json[]): string[] =>
  [...new Set(statements.flatMap((s) => list<string>(s.Action)).filter((a) => a.startsWith('dynamodb:')))].sort();
const expectedActions = (actions: readonly TableAction[]): string[] =>
  [...new Set(actions.filter((a) => a !== 'TransactWriteItems'))].map((a) => `dynamodb:${a}`).sort();

/** IAM's StringLike: `*` matches any run of characters. */
const stringLike = (pattern: string, value: string): boolean =>
  new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*')}$`).test(value);

/** Full paths of the API's resources, rebuilt from their PathPart and ParentId. */
function resourcePath(resourceId: string): string {
  const resource = resources[resourceId]!;
  const parent = resource.Properties.ParentId as Json;
  const prefix = parent.Ref ? resourcePath(parent.Ref as string) : '';
  return `${prefix}/${resource.Properties.PathPart as string}`;
}

/** The settings page's two methods (test/infra/settings-page.test.ts), beside the route list's. */
const pagePaths: string[] = Object.values(pageResourcePaths);
const isPageMethod = ([, method]: [string, Json]) =>
  pagePaths.includes(resourcePath(method.Properties.ResourceId.Ref as string));
const routeMethods = () => ofType('AWS::ApiGateway::Method').filter((method) => !isPageMethod(method));

const deploymentHandlers = deploymentHandlerIds(resources);
const serviceFunctions = () => ofType('AWS::Lambda::Function').filter(([id]) => !deploymentHandlers.has(id));

describe('functions', () => {
  test('one function per route, plus the one authorizer and the event functions; and the CDK’s deployment function', () => {
    expect(deploymentHandlers.size).toBe(1);
    expect(serviceFunctions()).toHaveLength(routes.length + 1 + eventFunctions.length);
    for (const route of routes) functionIdByDescription(routeDescription(route));
    functionIdByDescription(authorizerDescription);
    for (const eventFunction of eventFunctions) functionIdByDescription(eventFunction.description);
  });

  test('every function: nodejs22.x on arm64, memory and timeout set, X-Ray, its own log group, TABLE_NAME', () => {
    const eventDescriptions: unknown[] = eventFunctions.map((eventFunction) => eventFunction.description);
    for (const [, fn] of serviceFunctions()) {
      /** The event functions' timeouts: test/infra/outbound-events.test.ts. */
      const isApiFunction = !eventDescriptions.includes(fn.Properties.Description);
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        MemorySize: 512,
        Timeout: isApiFunction ? functionTimeoutSeconds : expect.any(Number),
        TracingConfig: { Mode: 'Active' },
        Environment: { Variables: { TABLE_NAME: { Ref: tableId } } },
        LoggingConfig: { LogGroup: { Ref: expect.any(String) } },
      });
      expect(resources[fn.Properties.LoggingConfig.LogGroup.Ref]!.Type).toBe('AWS::Logs::LogGroup');
    }
  });

  test('log groups are created with a retention, never through the logRetention custom resource', () => {
    for (const [, group] of ofType('AWS::Logs::LogGroup')) expect(group.Properties.RetentionInDays).toBe(30);
    expect(ofType('Custom::LogRetention')).toHaveLength(0);
  });
});

describe('API', () => {
  test('every route of the list is a method wired to its own function; besides them, only the page’s two', () => {
    expect(
      ofType('AWS::ApiGateway::Method')
        .filter(isPageMethod)
        .map(([, method]) => resourcePath(method.Properties.ResourceId.Ref as string))
        .sort(),
    ).toEqual(pagePaths.sort());
    const methods = routeMethods().map(([, method]) => {
      const uri = JSON.stringify(method.Properties.Integration.Uri);
      const target = ofType('AWS::Lambda::Function').find(([id]) => uri.includes(`"${id}"`));
      return {
        route: `${method.Properties.HttpMethod as string} ${resourcePath(method.Properties.ResourceId.Ref as string)}`,
        target: target?.[1].Properties.Description as string | undefined,
        type: method.Properties.Integration.Type as string,
      };
    });
    expect(methods.map((m) => m.route).sort()).toEqual(routes.map(routeDescription).sort());
    for (const method of methods)
      expect(method).toEqual({ route: method.route, target: method.route, type: 'AWS_PROXY' });
  });

  test('the one REQUEST authorizer guards every method of the routes, without cache and without identity source', () => {
    const authorizers = ofType('AWS::ApiGateway::Authorizer');
    expect(authorizers).toHaveLength(1);
    const [authorizerId, authorizer] = authorizers[0]!;
    expect(authorizer.Properties).toMatchObject({ Type: 'REQUEST', AuthorizerResultTtlInSeconds: 0 });
    expect(authorizer.Properties).not.toHaveProperty('IdentitySource');
    expect(JSON.stringify(authorizer.Properties.AuthorizerUri)).toContain(
      `"${functionIdByDescription(authorizerDescription)}"`,
    );
    const methods = routeMethods();
    expect(methods).toHaveLength(routes.length);
    for (const [, method] of methods) {
      expect(method.Properties).toMatchObject({ AuthorizationType: 'CUSTOM', AuthorizerId: { Ref: authorizerId } });
    }
  });

  test.each(Object.keys(gatewayResponses) as GatewayResponseType[])(
    'gateway response %s answers in the documented error shapes',
    (type) => {
      const statusCode = gatewayResponses[type].statusCode;
      template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
        ResponseType: type,
        StatusCode: statusCode === undefined ? Match.absent() : String(statusCode),
        ResponseTemplates: { 'application/json': gatewayResponseTemplate(type) },
      });
    },
  );

  test('every gateway-response template, as deployed, renders to JSON: static text, no VTL directive', () => {
    const deployed = ofType('AWS::ApiGateway::GatewayResponse');
    expect(deployed.map(([, r]) => r.Properties.ResponseType as string).sort()).toEqual(
      Object.keys(gatewayResponses).sort(),
    );
    for (const [, response] of deployed) {
      const templates = response.Properties.ResponseTemplates as Record<string, string>;
      for (const text of Object.values(templates)) {
        expect(text).not.toContain('#');
        const rendered = renderGatewayTemplate(text, { requestId: 'r', resourcePath: '/webhooks/ingest-lead' });
        expect(JSON.parse(rendered)).toEqual({ error: { code: expect.any(String), message: expect.any(String) } });
      }
      expect(response.Properties.ResponseParameters).toEqual({
        'gatewayresponse.header.x-request-id': 'context.requestId',
        'gatewayresponse.header.Cache-Control': "'no-store'",
        'gatewayresponse.header.X-Content-Type-Options': "'nosniff'",
      });
    }
  });

  test.each(['DEFAULT_4XX', 'DEFAULT_5XX'])(
    '%s, which answers every type the stack does not customise, is neither cacheable nor sniffable',
    (type) => {
      template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
        ResponseType: type,
        ResponseParameters: Match.objectLike({
          'gatewayresponse.header.Cache-Control': "'no-store'",
          'gatewayresponse.header.X-Content-Type-Options': "'nosniff'",
        }),
      });
    },
  );

  test('synthesis stops on a route under a workspace without a role, naming it', () => {
    const roleless: Route = { ...routeById('getWorkspace'), id: 'probeRoleless', path: '/workspaces/{workspace_id}/x' };
    delete roleless.role;
    expect(() => new CrmStack(testApp(), 'Crm-roleless', { stage: 'test', routes: [...routes, roleless] })).toThrow(
      /probeRoleless/,
    );
  });

  test('an unknown route answers 404 not_found instead of API Gateway’s 403', () => {
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'MISSING_AUTHENTICATION_TOKEN',
      StatusCode: '404',
      ResponseTemplates: { 'application/json': Match.stringLikeRegexp('"not_found"') },
    });
  });

  test('stage: no X-Ray, execution logs at ERROR without data tracing, throttled', () => {
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'test',
      TracingEnabled: false,
      MethodSettings: Match.arrayWith([
        Match.objectLike({
          HttpMethod: '*',
          ResourcePath: '/*',
          LoggingLevel: 'ERROR',
          DataTraceEnabled: false,
          ThrottlingRateLimit: stageThrottling.rateLimit,
          ThrottlingBurstLimit: stageThrottling.burstLimit,
        }),
      ]),
    });
  });

  test('access log lines are JSON without the query string or any header', () => {
    const [[, stage]] = ofType('AWS::ApiGateway::Stage') as [[string, Json]];
    const format = stage.Properties.AccessLogSetting.Format as string;
    expect(JSON.parse(format)).toEqual(accessLogFields);
    expect(format).not.toMatch(/querystring|header|useragent|\$context\.path\b|requestOverride|responseOverride/i);
  });

  test('execution logs go to a log group with a retention, created before the stage', () => {
    const [[stageId, stage]] = ofType('AWS::ApiGateway::Stage') as [[string, Json]];
    const [[groupId]] = ofType('AWS::Logs::LogGroup').filter(([, group]) =>
      JSON.stringify(group.Properties.LogGroupName ?? '').includes('API-Gateway-Execution-Logs_'),
    ) as [[string, Json]];
    expect(stage.DependsOn).toContain(groupId);
    expect(stageId).toBeDefined();
  });
});

describe('throttling', () => {
  const [[, stage]] = ofType('AWS::ApiGateway::Stage') as [[string, Json]];
  const settings = stage.Properties.MethodSettings as Json[];
  /** CloudFormation's ResourcePath: every `/` of the path written `~1`, after a leading `/`. */
  const encoded = (path: string) => `/${path.replaceAll('/', '~1')}`;

  test('every route has its own method setting: its family’s throttle, execution logs at ERROR, no data trace', () => {
    const perMethod = settings.filter((setting) => setting.ResourcePath !== '/*');
    expect(perMethod.map((s) => `${s.HttpMethod as string} ${s.ResourcePath as string}`).sort()).toEqual(
      [
        ...routes.map((route) => `${route.method} ${encoded(route.path)}`),
        ...pagePaths.map((path) => `GET ${encoded(path)}`),
      ].sort(),
    );
    for (const route of routes) {
      expect(settings.find((s) => s.ResourcePath === encoded(route.path) && s.HttpMethod === route.method)).toEqual({
        HttpMethod: route.method,
        ResourcePath: encoded(route.path),
        LoggingLevel: 'ERROR',
        DataTraceEnabled: false,
        ThrottlingRateLimit: methodThrottleOf(route).rateLimit,
        ThrottlingBurstLimit: methodThrottleOf(route).burstLimit,
      });
    }
  });

  test('so has each of the page’s two methods: the stage’s default throttles nothing', () => {
    for (const path of pagePaths)
      expect(settings.find((s) => s.ResourcePath === encoded(path) && s.HttpMethod === 'GET')).toEqual({
        HttpMethod: 'GET',
        ResourcePath: encoded(path),
        LoggingLevel: 'ERROR',
        DataTraceEnabled: false,
        ThrottlingRateLimit: pageThrottling.rateLimit,
        ThrottlingBurstLimit: pageThrottling.burstLimit,
      });
    expect(pageThrottling.burstLimit).toBeGreaterThanOrEqual(pageThrottling.rateLimit);
  });

  test('the Prospect API and the webhooks each have their throttle, every method its own bucket', () => {
    expect(methodThrottling).toEqual({
      'api-key': { rateLimit: 200, burstLimit: 400 },
      'webhook-token': { rateLimit: 250, burstLimit: 500 },
      'member-token': { rateLimit: 20, burstLimit: 40 },
      none: { rateLimit: 20, burstLimit: 40 },
    });
    const throttleOf = (id: string) => methodThrottleOf(routes.find((route) => route.id === id)!);
    for (const lookup of ['listAssignableMembers', 'listCustomFields'])
      expect([lookup, throttleOf(lookup)]).toEqual([lookup, { rateLimit: 25, burstLimit: 50 }]);
    for (const edit of ['createField', 'changeField', 'deleteField', 'changeWorkspace'])
      expect([edit, throttleOf(edit)]).toEqual([edit, { rateLimit: 5, burstLimit: 10 }]);
    expect(throttleOf('listFields')).toEqual(methodThrottling['member-token']);
    expect(routes.filter((route) => route.credential === 'api-key').length).toBeGreaterThan(0);
    expect(routes.filter((route) => route.credential === 'webhook-token').length).toBeGreaterThan(0);
  });

  test('a Prospect API method holds the expected workspaces at their full per-key limit; bursts hold a second', () => {
    expect(methodThrottling['api-key'].rateLimit).toBeGreaterThanOrEqual(
      (expectedActiveWorkspaces * requestLimit) / 60,
    );
    for (const throttle of [...Object.values(methodThrottling), stageThrottling])
      expect(throttle.burstLimit).toBeGreaterThanOrEqual(throttle.rateLimit);
  });

  test('one IP address gets at most a small share of any method’s throttle', () => {
    const perIpPerSecond = ipRateLimit.limit / ipRateLimit.evaluationWindowSec;
    expect(perIpPerSecond).toBeGreaterThanOrEqual((5 * requestLimit) / 60);
    /** Machines (form tools, integrations): a twentieth; people (the settings API): a tenth, one member's limit. */
    const perAddress: Record<Credential, { perSecond: number; share: number }> = {
      'api-key': { perSecond: perIpPerSecond, share: 0.05 },
      'webhook-token': { perSecond: perIpPerSecond, share: 0.05 },
      'member-token': { perSecond: settingsRateLimit.limit / settingsRateLimit.evaluationWindowSec, share: 0.1 },
      none: { perSecond: settingsRateLimit.limit / settingsRateLimit.evaluationWindowSec, share: 0.1 },
    };
    for (const [credential, throttle] of Object.entries(methodThrottling) as [Credential, { rateLimit: number }][]) {
      const share = perAddress[credential].perSecond / throttle.rateLimit;
      expect({ credential, small: share <= perAddress[credential].share }).toEqual({ credential, small: true });
    }
    // A member at the service's own limit is never refused by the web ACL first.
    expect(settingsRateLimit.limit / (settingsRateLimit.evaluationWindowSec / 60)).toBeGreaterThanOrEqual(requestLimit);
  });

  test('anonymous clients need 1,500 addresses to empty a webhook’s throttle, 1,200 a Prospect API method’s, where 25 did', () => {
    const perIpPerSecond = ipRateLimit.limit / ipRateLimit.evaluationWindowSec;
    const anonymousPerIpPerSecond = anonymousRateLimit.limit / anonymousRateLimit.evaluationWindowSec;
    const addressesToEmpty = (rate: number, perAddress: number) => Math.ceil(rate / perAddress);
    expect(addressesToEmpty(stageThrottling.rateLimit, perIpPerSecond)).toBe(25);
    expect(addressesToEmpty(methodThrottling['webhook-token'].rateLimit, anonymousPerIpPerSecond)).toBe(1500);
    expect(addressesToEmpty(methodThrottling['api-key'].rateLimit, anonymousPerIpPerSecond)).toBe(1200);
  });
});

describe('web ACL', () => {
  const [[webAclId, webAcl]] = ofType('AWS::WAFv2::WebACL') as [[string, Json]];
  const rule = (name: string): Json =>
    (webAcl.Properties.Rules as Json[]).find((candidate) => candidate.Name === name) as Json;
  const contentLengthOver = {
    RegexMatchStatement: {
      FieldToMatch: { SingleHeader: { Name: 'content-length' } },
      RegexString: contentLengthPattern,
      TextTransformations: [{ Priority: 0, Type: 'NONE' }],
    },
  };

  test('one regional web ACL, allowing by default, without sampled requests (they keep URLs and headers)', () => {
    expect(ofType('AWS::WAFv2::WebACL')).toHaveLength(1);
    expect(webAcl.Properties).toMatchObject({ Scope: 'REGIONAL', DefaultAction: { Allow: {} } });
    const configs = [webAcl.Properties, ...(webAcl.Properties.Rules as Json[])].map((r) => r.VisibilityConfig as Json);
    for (const config of configs) expect(config).toMatchObject({ SampledRequestsEnabled: false });
  });

  test('associated with the API stage', () => {
    const associations = ofType('AWS::WAFv2::WebACLAssociation');
    expect(associations).toHaveLength(1);
    const [[, association]] = associations as [[string, Json]];
    const [[stageId]] = ofType('AWS::ApiGateway::Stage') as [[string, Json]];
    expect(association.Properties.WebACLArn).toEqual({ 'Fn::GetAtt': [webAclId, 'Arn'] });
    const arn = JSON.stringify(association.Properties.ResourceArn);
    expect(arn).toContain('/restapis/');
    expect(arn).toContain(`{"Ref":"${stageId}"}`);
    expect(association.DependsOn).toContain(stageId);
  });

  test('custom response bodies: the JSON of lib/messages.ts, one per block', () => {
    expect(webAcl.Properties.CustomResponseBodies).toEqual(
      Object.fromEntries(
        Object.values(wafResponseBodies).map((body) => [
          body.key,
          { ContentType: 'APPLICATION_JSON', Content: body.content },
        ]),
      ),
    );
  });

  test('per IP: a rate-based rule answering a JSON 429 with Retry-After, evaluated first', () => {
    expect(rule(wafRules.ipRateLimit.name)).toMatchObject({
      Priority: 0,
      Statement: { RateBasedStatement: { AggregateKeyType: 'IP', Limit: 600, EvaluationWindowSec: 60 } },
      Action: {
        Block: {
          CustomResponse: {
            ResponseCode: 429,
            CustomResponseBodyKey: wafResponseBodies.ipRateLimited.key,
            ResponseHeaders: [{ Name: 'Retry-After', Value: '60' }],
          },
        },
      },
    });
  });

  test('a body declared over 256 KB: the lead shape on the lead webhook’s path, then the standard one', () => {
    expect(rule(wafRules.leadBodyTooLarge.name)).toMatchObject({
      Priority: 1,
      Statement: {
        AndStatement: {
          Statements: [
            contentLengthOver,
            {
              RegexMatchStatement: {
                FieldToMatch: { UriPath: {} },
                RegexString: leadPathPattern,
                TextTransformations: [{ Priority: 0, Type: 'URL_DECODE' }],
              },
            },
          ],
        },
      },
      Action: {
        Block: { CustomResponse: { ResponseCode: 400, CustomResponseBodyKey: wafResponseBodies.leadBodyTooLarge.key } },
      },
    });
    expect(rule(wafRules.bodyTooLarge.name)).toMatchObject({
      Priority: 2,
      Statement: contentLengthOver,
      Action: {
        Block: { CustomResponse: { ResponseCode: 400, CustomResponseBodyKey: wafResponseBodies.bodyTooLarge.key } },
      },
    });
  });

  test('requests without any credential: a lower per-IP limit, after the per-IP rule, a JSON 429 with Retry-After', () => {
    const anonymous = rule(wafRules.anonymousRateLimit.name);
    expect(anonymous.Priority).toBeGreaterThan(rule(wafRules.ipRateLimit.name).Priority as number);
    expect(anonymous).toMatchObject({
      Statement: {
        RateBasedStatement: {
          AggregateKeyType: 'IP',
          Limit: anonymousRateLimit.limit,
          EvaluationWindowSec: anonymousRateLimit.evaluationWindowSec,
        },
      },
      Action: {
        Block: {
          CustomResponse: {
            ResponseCode: 429,
            CustomResponseBodyKey: wafResponseBodies.anonymousRateLimited.key,
            ResponseHeaders: [{ Name: 'Retry-After', Value: String(anonymousRateLimit.evaluationWindowSec) }],
          },
        },
      },
    });
    expect(anonymousRateLimit).toEqual({ limit: 10, evaluationWindowSec: 60 });
    expect(JSON.parse(wafResponseBodies.anonymousRateLimited.content)).toEqual({
      error: { code: 'rate_limited', message: expect.stringContaining('60 secondes') },
    });
  });

  test('anonymous: a request without any credential but the page’s files, or any request to a route that takes none', () => {
    const scopeDown = rule(wafRules.anonymousRateLimit.name).Statement.RateBasedStatement.ScopeDownStatement as Json;
    const credentialFree = credentialFreeRoutes(routes);
    expect(credentialFree.map((route) => `${route.method} ${route.path}`)).toEqual([
      'POST /session',
      'POST /session/refresh',
      'POST /password-reset',
      'POST /password-reset/confirm',
    ]);
    const [withoutCredential, toCredentialFreeRoute] = scopeDown.OrStatement.Statements as [Json, Json];
    expect(scopeDown.OrStatement.Statements).toHaveLength(2);
    expect(withoutCredential.AndStatement.Statements).toHaveLength(
      credentialPlaces.headers.length + credentialPlaces.queryArguments.length + 1,
    );
    expect(toCredentialFreeRoute).toEqual({
      AndStatement: {
        Statements: [
          {
            ByteMatchStatement: {
              FieldToMatch: { Method: {} },
              PositionalConstraint: 'EXACTLY',
              SearchString: 'POST',
              TextTransformations: [{ Priority: 0, Type: 'NONE' }],
            },
          },
          {
            RegexMatchStatement: {
              FieldToMatch: { UriPath: {} },
              RegexString: exactPathsPattern(credentialFree),
              TextTransformations: [{ Priority: 0, Type: 'URL_DECODE' }],
            },
          },
        ],
      },
    });
    expect(exactPathsPattern(credentialFree)).toBe(
      '^(?:/[^/]+)?(?:/session|/session/refresh|/password-reset|/password-reset/confirm)/?$',
    );
  });

  describe('which requests the anonymous rule counts, as WAF evaluates its scope-down statement', () => {
    type WafRequest = {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      query?: Record<string, string>;
    };
    /** WAF names headers and query arguments without regard to case. */
    const field = (values: Record<string, string> | undefined, name: string) =>
      Object.entries(values ?? {}).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];
    /** The statements the rule uses, as AWS WAF documents them; any other fails the test. */
    function matches(statement: Json, request: WafRequest): boolean {
      if (statement.AndStatement)
        return (statement.AndStatement.Statements as Json[]).every((s) => matches(s, request));
      if (statement.OrStatement) return (statement.OrStatement.Statements as Json[]).some((s) => matches(s, request));
      if (statement.ByteMatchStatement) {
        const byteMatch = statement.ByteMatchStatement as Json;
        expect(byteMatch).toMatchObject({
          FieldToMatch: { Method: {} },
          PositionalConstraint: 'EXACTLY',
          TextTransformations: [{ Priority: 0, Type: 'NONE' }],
        });
        return (request.method ?? 'GET') === byteMatch.SearchString;
      }
      if (statement.NotStatement) return !matches(statement.NotStatement.Statement as Json, request);
      if (statement.RegexMatchStatement) {
        const regex = statement.RegexMatchStatement as Json;
        expect(regex).toMatchObject({ FieldToMatch: { UriPath: {} }, TextTransformations: [{ Type: 'URL_DECODE' }] });
        return new RegExp(regex.RegexString as string).test(decodeURIComponent(request.path ?? '/prod/prospects'));
      }
      const size = statement.SizeConstraintStatement as Json;
      expect(size).toMatchObject({ ComparisonOperator: 'GT', TextTransformations: [{ Priority: 0, Type: 'NONE' }] });
      const value = size.FieldToMatch.SingleHeader
        ? field(request.headers, size.FieldToMatch.SingleHeader.Name as string)
        : field(request.query, size.FieldToMatch.SingleQueryArgument.Name as string);
      /** An absent header or argument does not match ("Rate limit the requests that are missing a specific header"). */
      return value !== undefined && Buffer.byteLength(value) > (size.Size as number);
    }
    const countedAsAnonymous = (request: WafRequest) =>
      matches(rule(wafRules.anonymousRateLimit.name).Statement.RateBasedStatement.ScopeDownStatement as Json, request);
    const endpoint_id = '0b7c3a52-5f7e-4c1e-9d0a-6f1f2b3c4d5e';

    test.each<[string, WafRequest]>([
      ['a Prospect API call with its key', { headers: { Authorization: 'Bearer crm_live_abc' } }],
      [
        'a webhook call with Authorization: Bearer',
        { headers: { authorization: 'Bearer crm_whk_abc' }, query: { endpoint_id } },
      ],
      [
        'a webhook call with x-webhook-token',
        { headers: { 'X-Webhook-Token': 'crm_whk_abc' }, query: { endpoint_id } },
      ],
      ['a webhook call with ?token=', { query: { endpoint_id, token: 'crm_whk_abc' } }],
      ['a webhook call with ?TOKEN= (WAF ignores case)', { query: { endpoint_id, TOKEN: 'crm_whk_abc' } }],
      ['the settings page', { path: '/prod/app/' }],
      ['the settings page without its slash', { path: '/prod/app' }],
      ['one of its files', { path: '/prod/app/assets/main-4KX2PQ7B.js' }],
      ['one of its files on a custom domain', { path: '/app/assets/main-4KX2PQ7B.css' }],
    ])('not counted: %s', (_, request) => {
      expect(countedAsAnonymous(request)).toBe(false);
    });

    test.each<[string, WafRequest]>([
      ['no header and no query', {}],
      ['a webhook call with endpoint_id alone', { query: { endpoint_id } }],
      ['a credential in a place the authorizer does not read', { query: { api_key: 'crm_live_abc' } }],
      ['empty credential places', { headers: { 'x-webhook-token': '' }, query: { endpoint_id, token: '' } }],
      ['a sign-in call, which carries none yet', { method: 'POST', path: '/prod/session' }],
      ['a path that only starts like the page’s', { path: '/prod/application' }],
      [
        'a sign-in call with a made-up Authorization header',
        { method: 'POST', path: '/prod/session', headers: { Authorization: 'Bearer x' } },
      ],
      [
        'a sign-in call on a custom domain, with a slash and every credential place filled',
        {
          method: 'POST',
          path: '/session/',
          headers: { authorization: 'Bearer x', 'x-webhook-token': 'x' },
          query: { token: 'x' },
        },
      ],
      [
        'a password reset with a made-up Authorization header',
        { method: 'POST', path: '/prod/password-reset', headers: { Authorization: 'Bearer x' } },
      ],
      [
        'its confirmation, encoded, with a made-up x-webhook-token',
        { method: 'POST', path: '/prod/password%2Dreset/confirm', headers: { 'x-webhook-token': 'x' } },
      ],
      [
        'a refresh with a made-up Authorization header',
        { method: 'POST', path: '/prod/session/refresh', headers: { Authorization: 'Bearer x' } },
      ],
    ])('counted: %s', (_, request) => {
      expect(countedAsAnonymous(request)).toBe(true);
    });

    test.each<[string, WafRequest]>([
      [
        'a sign-out with a member’s token',
        { method: 'DELETE', path: '/prod/session', headers: { Authorization: 'Bearer t' } },
      ],
      [
        'a password change with a member’s token',
        { method: 'POST', path: '/prod/session/password', headers: { Authorization: 'Bearer t' } },
      ],
      ['a settings call with a member’s token', { path: '/prod/workspaces', headers: { Authorization: 'Bearer t' } }],
    ])('not counted: %s, a route that reads the token', (_, request) => {
      expect(countedAsAnonymous(request)).toBe(false);
    });

    test('every route with a made-up Authorization header: counted exactly when it takes no credential, behind the stage or not', () => {
      const concrete = (path: string) => path.replace(/\{[^}]+\}/g, '0b7c3a52-5f7e-4c1e-9d0a-6f1f2b3c4d5e');
      for (const route of routes) {
        for (const path of [concrete(route.path), `/prod${concrete(route.path)}`]) {
          const request = { method: route.method, path, headers: { Authorization: 'Bearer x' } };
          expect({ route: route.id, path, counted: countedAsAnonymous(request) }).toEqual({
            route: route.id,
            path,
            counted: route.credential === 'none',
          });
        }
      }
    });

    test('the places are exactly where the authorizer finds a credential', () => {
      const places: WafRequest[] = [
        ...credentialPlaces.headers.map((name) => ({
          headers: { [name]: name === 'authorization' ? 'Bearer crm_whk_abc' : 'crm_whk_abc' },
        })),
        ...credentialPlaces.queryArguments.map((name) => ({ query: { [name]: 'crm_whk_abc' } })),
      ];
      for (const request of places) {
        expect(webhookToken({ headers: request.headers ?? null, query: request.query ?? null })).toBe('crm_whk_abc');
        expect(countedAsAnonymous(request)).toBe(false);
      }
      expect(webhookToken({ headers: null, query: { api_key: 'crm_live_abc', endpoint_id } })).toBeUndefined();
    });
  });
});

describe('table', () => {
  test('keys and indexes are the ones of the table definition', () => {
    const keySchema = (partitionKey: string, sortKey: string) => [
      { AttributeName: partitionKey, KeyType: 'HASH' },
      { AttributeName: sortKey, KeyType: 'RANGE' },
    ];
    const table = resources[tableId]!.Properties;
    expect(table.KeySchema).toEqual(keySchema(tableDefinition.partitionKey, tableDefinition.sortKey));
    expect(table.GlobalSecondaryIndexes).toEqual(
      tableDefinition.globalSecondaryIndexes.map((index) => ({
        IndexName: index.indexName,
        KeySchema: keySchema(index.partitionKey, index.sortKey),
        Projection: projectionOf(index),
      })),
    );
  });

  test('an existing table takes its new indexes one deployment at a time: -c tableIndexes declares the first ones', () => {
    const scope = new Stack(testApp(), 'Table-only');
    new SingleTable(scope, 'Table', 5);
    const [table] = Object.values(Template.fromStack(scope).findResources('AWS::DynamoDB::Table'));
    const declared = (table!.Properties.GlobalSecondaryIndexes as { IndexName: string }[]).map(
      (index) => index.IndexName,
    );
    expect(declared).toEqual(['gsi1', 'gsi2', 'gsi3', 'gsi4', 'gsi5']);
    for (const count of [3, 7, 4.5]) {
      expect(() => new CrmStack(testApp(), 'Crm-indexes', { stage: 'test', tableIndexes: count })).toThrow(
        messages.deployment.invalidTableIndexes(String(count), 4, 6),
      );
    }
  });

  test('the prospects of a workspace are indexed with only what the phone indexing reads', () => {
    const indexes = resources[tableId]!.Properties.GlobalSecondaryIndexes as {
      IndexName: string;
      Projection: unknown;
    }[];
    expect(indexes.find((index) => index.IndexName === 'gsi3')?.Projection).toEqual({
      ProjectionType: 'INCLUDE',
      NonKeyAttributes: ['id', 'phone', 'created_at'],
    });
  });

  test('on demand, point-in-time recovery, deletion protection, TTL, retained with the stack gone', () => {
    expect(resources[tableId]).toMatchObject({
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: {
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        DeletionProtectionEnabled: true,
        TimeToLiveSpecification: { AttributeName: tableDefinition.timeToLiveAttribute, Enabled: true },
      },
    });
  });
});

describe('signing-secrets table (docs/adr/0012-signing-secrets-table.md)', () => {
  const secretsTable = () => resources[secretsTableId]!;

  test('keys of its definition, and nothing else: no stream, no index, no time to live', () => {
    expect(secretsTable().Properties).toEqual({
      KeySchema: [
        { AttributeName: secretsTableDefinition.partitionKey, KeyType: 'HASH' },
        { AttributeName: secretsTableDefinition.sortKey, KeyType: 'RANGE' },
      ],
      AttributeDefinitions: [
        { AttributeName: secretsTableDefinition.partitionKey, AttributeType: 'S' },
        { AttributeName: secretsTableDefinition.sortKey, AttributeType: 'S' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      DeletionProtectionEnabled: true,
      SSESpecification: { SSEEnabled: false },
    });
    expect(secretsTable().Properties).not.toHaveProperty('StreamSpecification');
  });

  test('kept as the main table: retained with the stack gone, on replacement too', () => {
    expect(secretsTable()).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });

  test('no event source mapping reads it: the stream handler’s reads the main table’s stream', () => {
    const mappings = ofType('AWS::Lambda::EventSourceMapping').map(([, mapping]) => mapping.Properties);
    const streamMappings = mappings.filter((mapping) => JSON.stringify(mapping.EventSourceArn).includes('Stream'));
    expect(streamMappings.map((mapping) => mapping.EventSourceArn)).toEqual([{ 'Fn::GetAtt': [tableId, 'StreamArn'] }]);
    expect(JSON.stringify(mappings)).not.toContain(secretsTableId);
  });

  test('its ARN is named by the delivery function’s BatchGetItem, and one write of each route that makes, rotates or deletes a secret', () => {
    const naming = ofType('AWS::IAM::Policy').flatMap(([, policy]) =>
      (policy.Properties.PolicyDocument.Statement as Json[])
        .filter((statement) => JSON.stringify(statement).includes(secretsTableId))
        .map((statement) => ({ roles: policy.Properties.Roles as Json[], statement })),
    );
    const deliverEvent = functionIdByDescription(eventFunctions.find((f) => f.id === 'deliverEvent')!.description);
    const reads = naming.filter(({ statement }) => statement.Action === 'dynamodb:BatchGetItem');
    expect(reads).toEqual([
      {
        roles: [{ Ref: resources[deliverEvent]!.Properties.Role['Fn::GetAtt'][0] }],
        statement: { Action: 'dynamodb:BatchGetItem', Effect: 'Allow', Resource: secretsTableArn },
      },
    ]);
    // The settings routes' writes (in the settings API's nested stack): one action each, never a read.
    const writes = naming.filter(({ statement }) => statement.Action !== 'dynamodb:BatchGetItem');
    expect(writes.map(({ statement }) => statement.Action).sort()).toEqual(
      routes.flatMap((route) => (route.secretsTableActions ?? []).map((action) => `dynamodb:${action}`)).sort(),
    );
    // Write-only by IAM: a write may ask for nothing back (test/infra/iam-least-privilege.test.ts simulates it).
    for (const { statement } of writes) {
      expect(statement).toEqual({
        Action: statement.Action,
        Effect: 'Allow',
        Resource: secretsTableArn,
        Condition: { StringEqualsIfExists: { 'dynamodb:ReturnValues': 'NONE' } },
      });
    }
  });
});

describe('least privilege', () => {
  const allStatements = ofType('AWS::IAM::Policy').flatMap(
    ([, policy]) => policy.Properties.PolicyDocument.Statement as Json[],
  );
  /** Reading the change stream is the stream handler's alone (test/infra/outbound-events.test.ts). */
  const streamReadActions = [
    'dynamodb:ListStreams',
    'dynamodb:DescribeStream',
    'dynamodb:GetRecords',
    'dynamodb:GetShardIterator',
  ];
  /** The main table's statements; the signing-secrets table's one is checked above. */
  const tableStatements = allStatements.filter(
    (s) =>
      list<string>(s.Action).some((a) => a.startsWith('dynamodb:') && !streamReadActions.includes(a)) &&
      JSON.stringify(s.Resource) !== JSON.stringify(secretsTableArn),
  );
  const indexArn = (name: string) => ({ 'Fn::Join': ['', [tableArn, `/index/${name}`]] });

  test.each(routes.map((route) => [route.id, route] as const))('%s gets exactly its table actions', (_, route) => {
    const statements = statementsOf(functionIdByDescription(routeDescription(route)));
    // With the signing-secrets table's writes of the routes that make, rotate or delete a secret.
    expect(dynamoActions(statements)).toEqual(
      expectedActions([...route.tableActions, ...(route.secretsTableActions ?? [])]),
    );
  });

  test('only the replay may invoke a function: the two webhooks’ own, unqualified, which it is told by name', () => {
    const invoking = ofType('AWS::Lambda::Function').filter(([id]) =>
      statementsOf(id).some((statement) =>
        list<string>(statement.Action).some((action) => action.startsWith('lambda:')),
      ),
    );
    const replay = functionIdByDescription(routeDescription(routes.find((route) => route.id === 'replayWebhookCall')!));
    expect(invoking.map(([id]) => id)).toEqual([replay]);
    const [ingestLead, recruitment] = ['ingestLead', 'recruitment'].map((id) =>
      functionIdByDescription(routeDescription(routes.find((route) => route.id === id)!)),
    );
    const invokes = statementsOf(replay).filter((statement) => JSON.stringify(statement.Action).includes('lambda:'));
    expect(invokes).toEqual([
      {
        Action: 'lambda:InvokeFunction',
        Effect: 'Allow',
        Resource: [{ 'Fn::GetAtt': [ingestLead, 'Arn'] }, { 'Fn::GetAtt': [recruitment, 'Arn'] }],
      },
    ]);
    expect(resources[replay]!.Properties.Environment.Variables).toMatchObject({
      INGEST_LEAD_FUNCTION_NAME: { Ref: ingestLead },
      RECRUITMENT_FUNCTION_NAME: { Ref: recruitment },
    });
  });

  test('the authorizer gets GetItem, UpdateItem and, for members, BatchGetItem only', () => {
    const statements = statementsOf(functionIdByDescription(authorizerDescription));
    const granted = ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:UpdateItem'];
    expect(dynamoActions(statements)).toEqual(granted);
    expect(expectedActions(authorizerTableActions)).toEqual(granted);
  });

  test('table statements name the table or one of its indexes, with no wildcard action', () => {
    expect(tableStatements.length).toBeGreaterThan(0);
    const allowed = [tableArn, ...tableDefinition.globalSecondaryIndexes.map((index) => indexArn(index.indexName))];
    for (const statement of tableStatements) {
      for (const action of list<string>(statement.Action)) expect(action).not.toContain('*');
      for (const resource of list<Json>(statement.Resource)) expect(allowed).toContainEqual(resource);
    }
  });

  test('only functions that name an index reach it, and only for Query (none does today)', () => {
    const withIndex = tableStatements.filter((s) => JSON.stringify(s.Resource).includes('/index/'));
    for (const statement of withIndex) expect(statement.Action).toBe('dynamodb:Query');
    for (const route of routes) {
      const reachesIndex = statementsOf(functionIdByDescription(routeDescription(route))).some((s) =>
        JSON.stringify(s.Resource).includes('/index/'),
      );
      expect(reachesIndex).toBe((route.tableKeys?.indexes ?? []).length > 0);
    }
  });

  test('DeleteItem is always bound to the deletable key prefixes, which exclude prospects and notes, but for the purge and the erasure', () => {
    const deletions = tableStatements.filter((s) => list<string>(s.Action).includes('dynamodb:DeleteItem'));
    const deleting = [...routes, ...eventFunctions].filter((fn) => fn.tableActions.includes('DeleteItem'));
    expect(deletions.length).toBe(deleting.length);
    // The two exceptions: the purge's role, on PROSPECT# alone (docs/adr/0016-custom-fields-storage.md); the erasing
    // functions', on the erased record's prefixes (docs/adr/0019-erasure-in-the-background.md).
    const purge = eventFunctions.find((f) => f.id === 'purgeDeletedFields')!;
    const purgeStatements = new Set(statementsOf(functionIdByDescription(purge.description)));
    const erasing = [...routes, ...eventFunctions].filter((fn) => fn.tableKeys?.erasesRecords === true);
    const erasedPatterns = erasedPrefixes.map((prefix) => `${prefix}*`);
    let exceptions = 0;
    for (const statement of deletions) {
      const condition = statement.Condition as Json;
      const patterns = list<string>(condition['ForAllValues:StringLike']['dynamodb:LeadingKeys']);
      if (purgeStatements.has(statement)) expect(patterns).toEqual(['PROSPECT#*']);
      else if (patterns.some((pattern) => !deletableLeadingKeys.includes(pattern))) {
        exceptions += 1;
        for (const pattern of patterns) expect([...deletableLeadingKeys, ...erasedPatterns]).toContain(pattern);
      } else for (const pattern of patterns) expect(deletableLeadingKeys).toContain(pattern);
      // ForAllValues holds for a request without the key: the Null guard refuses that case.
      expect(condition.Null).toEqual({ 'dynamodb:LeadingKeys': 'false' });
    }
    /** Notes and change-log entries live in the prospect's (or candidate's) partition. */
    const protectedPartitions = [
      keys.prospect('w', 'p').pk,
      keys.candidate('w', 'c').pk,
      keys.workspace('w').pk,
      keys.apiKey('f').pk,
      keys.endpoint('e').pk,
    ];
    for (const pattern of deletableLeadingKeys) {
      for (const pk of protectedPartitions) expect(stringLike(pattern, pk)).toBe(false);
    }
    expect(deletableLeadingKeys.some((pattern) => stringLike(pattern, keys.emailMarker('w', 'a@b.test').pk))).toBe(
      true,
    );
    expect(exceptions).toBe(erasing.length);
  });

  describe('mapping of route actions to IAM', () => {
    const scratch = new Stack(new App(), 'Scratch');
    const table = new Table(scratch, 'Table', { partitionKey: { name: 'pk', type: AttributeType.STRING } });
    const rendered = (actions: TableAction[], keys: TableKeys = {}) =>
      tableAccessStatements(table, actions, keys).map((statement) => statement.toStatementJson() as Json);

    test('TransactWriteItems is no IAM action: its item actions are granted instead', () => {
      const statements = rendered(['TransactWriteItems', 'PutItem', 'ConditionCheckItem'], {
        PutItem: ['UNIQ#'],
        ConditionCheckItem: ['UNIQ#'],
      });
      expect(statements.map((s) => s.Action)).toEqual([['dynamodb:PutItem', 'dynamodb:ConditionCheckItem']]);
    });

    test('TransactWriteItems alone is refused at synthesis', () => {
      expect(() => rendered(['TransactWriteItems'])).toThrow(/item actions/);
    });

    test('a delete inside a transaction is bound to the deletable prefixes too', () => {
      const statements = rendered(['TransactWriteItems', 'DeleteItem'], { DeleteItem: ['UNIQ#'] });
      expect(statements).toEqual([
        expect.objectContaining({
          Action: 'dynamodb:DeleteItem',
          Condition: {
            'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['UNIQ#*'] },
            Null: { 'dynamodb:LeadingKeys': 'false' },
          },
        }),
      ]);
      expect(() => rendered(['TransactWriteItems', 'DeleteItem'], { DeleteItem: ['PROSPECT#'] })).toThrow();
    });
  });
});

/** The bucket of the exports too large to answer (infra/cdk/constructs/export-bucket.ts), by its lifecycle rule. */
function exportBucketId(): string {
  const found = ofType('AWS::S3::Bucket').filter(([, bucket]) =>
    JSON.stringify(bucket.Properties.LifecycleConfiguration ?? {}).includes('ExpireExports'),
  );
  expect(found).toHaveLength(1);
  return found[0]![0];
}

describe('the export bucket', () => {
  test('private, encrypted, not versioned, its exports deleted a day after they are written', () => {
    expect(resources[exportBucketId()]!.Properties).toEqual(
      expect.objectContaining({
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
        OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
        BucketEncryption: {
          ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
        },
        LifecycleConfiguration: {
          Rules: [expect.objectContaining({ Id: 'ExpireExports', ExpirationInDays: 1, Status: 'Enabled' })],
        },
      }),
    );
    expect(resources[exportBucketId()]!.Properties.VersioningConfiguration).toBeUndefined();
  });

  test('exactly PutObject and GetObject on its objects, for the two export functions alone', () => {
    const onBucket = (statement: Json) => JSON.stringify(statement.Resource).includes(exportBucketId());
    const granted = ofType('AWS::IAM::Policy').flatMap(([, policy]) =>
      (policy.Properties.PolicyDocument.Statement as Json[]).filter(onBucket).map((statement) => ({
        roles: (policy.Properties.Roles as Json[]).map((role) => role.Ref as string),
        statement,
      })),
    );
    const exporting = routes.filter((route) => route.keepsExports);
    expect(exporting.map((route) => route.id)).toEqual(['exportWorkspaceProspect', 'exportWorkspaceCandidate']);
    const roleOf = (route: (typeof routes)[number]) =>
      resources[functionIdByDescription(routeDescription(route))]!.Properties.Role['Fn::GetAtt'][0] as string;
    expect(
      granted
        .map(({ roles }) => roles)
        .flat()
        .sort(),
    ).toEqual(exporting.map(roleOf).sort());
    for (const { statement } of granted) {
      expect(statement).toEqual({
        Effect: 'Allow',
        Action: ['s3:GetObject', 's3:PutObject'],
        Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [exportBucketId(), 'Arn'] }, '/*']] },
      });
    }
  });
});

describe('operations', () => {
  test('alarms on API 5xx, on every function’s throttles and on table throttles', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', { Namespace: 'AWS/ApiGateway', MetricName: '5XXError' });
    const throttles = ofType('AWS::CloudWatch::Alarm').filter(([, a]) => a.Properties.MetricName === 'Throttles');
    expect(throttles).toHaveLength(routes.length + 1 + eventFunctions.length);
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Metrics: Match.arrayWith([
        Match.objectLike({
          MetricStat: Match.objectLike({ Metric: Match.objectLike({ MetricName: 'ReadThrottleEvents' }) }),
        }),
      ]),
    });
  });

  test('outputs: API URL, the two table names, lead webhook URL pattern, the dead-letter queue, the kept stream batches, the delivery queue', () => {
    const outputs = template.toJSON().Outputs as Json;
    const queueIds = ofType('AWS::SQS::Queue').map(([id]) => id);
    const [deadLetterId, attribute] = outputs.DeliveryDeadLetterQueueName.Value['Fn::GetAtt'] as [string, string];
    expect(queueIds).toContain(deadLetterId);
    expect(attribute).toBe('QueueName');
    expect(queueIds).toContain(outputs.DeliveryQueueUrl.Value.Ref);
    const pageBuckets = [...pageBucketIds(resources)];
    expect(pageBuckets).toHaveLength(1);
    // The export bucket has no output: only the export functions, which are given its name, use it.
    expect(ofType('AWS::S3::Bucket').map(([id]) => ({ Ref: id }))).toEqual([
      outputs.StreamFailureBucketName.Value,
      ...pageBuckets.map((id) => ({ Ref: id })),
      { Ref: exportBucketId() },
    ]);
    expect(outputs.TableName.Value).toEqual({ Ref: tableId });
    expect(outputs.SecretsTableName.Value).toEqual({ Ref: secretsTableId });
    expect(JSON.stringify(outputs.ApiUrl.Value)).toContain('.execute-api.');
    const pattern = outputs.WebhookUrlPattern.Value['Fn::Join'][1] as unknown[];
    expect(pattern.at(-1)).toBe('/webhooks/ingest-lead?endpoint_id=<endpoint_id>');
  });
});

describe('cdk-nag', () => {
  /**
   * `cdk synth` gives the app the region (CDK_DEFAULT_REGION), and the account when it has credentials; the stack
   * then writes them, and the partition, into its ARNs as literals, and cdk-nag's findings name them so.
   */
  const deployments = {
    'no account, no region': stack,
    'a region alone (cdk synth without credentials)': new CrmStack(testApp(), 'Crm-test', {
      stage: 'test',
      env: { region: 'eu-west-3' },
    }),
    'an account and a region (cdk deploy)': new CrmStack(testApp(), 'Crm-test', {
      stage: 'test',
      env: { account: '123456789012', region: 'eu-west-3' },
    }),
  };
  const acknowledgedIds = (scope: Stack): string[] =>
    scope.node
      .findAll()
      .flatMap((construct) => construct.node.metadata)
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) => Object.keys(entry.data as Record<string, string>))
      // The CDK files each acknowledged rule id under `Annotation::<id>`.
      .map((id) => id.replace(/^Annotation::/, ''));

  test.each(
    Object.entries(deployments).flatMap(([deployment, built]) =>
      nagPacks().map((pack) => [pack.readPackName, deployment, built, pack] as const),
    ),
  )('%s, %s: no finding left unacknowledged', (_, __, built, pack) => {
    const findings = pack
      .validateScope(built)
      .violations.map((v) => `${v.ruleName} ${v.violatingResources.map((r) => r.constructPath).join(', ')}`);
    expect(findings).toEqual([]);
  });

  test('an acknowledgement names a resource or a policy as the stack resolves it: the account and region written out when known', () => {
    const assetsBucketObjects = (built: Stack) =>
      acknowledgedIds(built).filter((id) => id.includes(':s3:::cdk-hnb659fds-assets-'));
    expect(assetsBucketObjects(stack)).toEqual([
      'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*]',
    ]);
    expect(assetsBucketObjects(deployments['a region alone (cdk synth without credentials)'])).toEqual([
      'AwsSolutions-IAM5[Resource::arn:aws:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-eu-west-3/*]',
    ]);
    const deployed = deployments['an account and a region (cdk deploy)'];
    expect(assetsBucketObjects(deployed)).toEqual([
      'AwsSolutions-IAM5[Resource::arn:aws:s3:::cdk-hnb659fds-assets-123456789012-eu-west-3/*]',
    ]);
    const namingArns = acknowledgedIds(deployed).filter((id) => /\[(Resource|Policy)::/.test(id));
    // An AWS managed policy's ARN keeps the partition's pseudo parameter, an account and a region known or not.
    expect(namingArns.filter((id) => id.includes('Policy::')).sort()).toEqual([
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
    ]);
    // Nothing left to the pseudo parameters a known account and region replace.
    expect(namingArns.filter((id) => /<AWS::(Region|AccountId)>/.test(id))).toEqual([]);
  });

  test('every acknowledgement carries a written reason', () => {
    const acknowledged = stack.node
      .findAll()
      .flatMap((construct) => construct.node.metadata)
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) => Object.entries(entry.data as Record<string, string>));
    expect(acknowledged.length).toBeGreaterThan(0);
    for (const [, reason] of acknowledged) expect(reason.length).toBeGreaterThan(40);
  });

  test('the CDK itself reports no warning or error', () => {
    expect(Annotations.fromStack(stack).findError('*', Match.anyValue())).toEqual([]);
    expect(Annotations.fromStack(stack).findWarning('*', Match.anyValue())).toEqual([]);
  });
});
