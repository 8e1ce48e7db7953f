import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import type { Route } from '../../../lib/routes';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import {
  anonymousRateLimit,
  contentLengthPattern,
  credentialFreeRoutes,
  credentialPlaces,
  exactPathsPattern,
  ipRateLimit,
  leadPathPattern,
  pagePathPattern,
  settingsPathPattern,
  settingsPathSegments,
  settingsRateLimit,
  wafResponseBodies,
  wafRules,
  type WafBlock,
} from '../waf-rules';

export type ApiWebAclProps = { stage: Stage; name: string; routes: readonly Route[] };

const noTransformation = [{ priority: 0, type: 'NONE' }];
const urlDecoded = [{ priority: 0, type: 'URL_DECODE' }];

/**
 * Sampled requests stay off: WAF would keep the full URI (a webhook token may travel in ?token=)
 * and every header (Authorization) of a sample of requests, the reason the API stage has no X-Ray.
 * The CloudWatch metrics (counts per rule) are kept.
 */
const visibility = (metricName: string): CfnWebACL.VisibilityConfigProperty => ({
  cloudWatchMetricsEnabled: true,
  metricName,
  sampledRequestsEnabled: false,
});

const blockWith = (block: WafBlock): CfnWebACL.RuleActionProperty => ({
  block: {
    customResponse: {
      responseCode: block.statusCode,
      customResponseBodyKey: block.body.key,
      responseHeaders:
        Object.keys(block.headers).length > 0
          ? Object.entries(block.headers).map(([name, value]) => ({ name, value }))
          : undefined,
    },
  },
});

/** The declared `Content-Length` is past the handlers' limit (see ../waf-rules.ts for why not the body). */
const declaredBodyTooLarge: CfnWebACL.StatementProperty = {
  regexMatchStatement: {
    regexString: contentLengthPattern,
    fieldToMatch: { singleHeader: { Name: 'content-length' } },
    textTransformations: noTransformation,
  },
};

/**
 * The request carries nothing in any place the authorizer reads a credential from: no place has a
 * value of at least one byte. AWS WAF's own pattern for "requests that are missing a specific header",
 * a NOT around a size constraint ("Rate limit the requests that are missing a specific header",
 * https://docs.aws.amazon.com/waf/latest/developerguide/waf-rate-based-example-limit-missing-header.html),
 * once per place, and-ed together; and it is not for the settings page's files (`pagePathPattern`).
 */
const anonymousOutsideThePage: CfnWebACL.StatementProperty = {
  andStatement: {
    statements: [
      ...[
        ...credentialPlaces.headers.map((name) => ({ singleHeader: { Name: name } })),
        ...credentialPlaces.queryArguments.map((name) => ({ singleQueryArgument: { Name: name } })),
      ].map((fieldToMatch) => ({
        notStatement: {
          statement: {
            sizeConstraintStatement: {
              fieldToMatch,
              comparisonOperator: 'GT',
              size: 0,
              textTransformations: noTransformation,
            },
          },
        },
      })),
      {
        notStatement: {
          statement: {
            regexMatchStatement: {
              regexString: pagePathPattern,
              fieldToMatch: { uriPath: {} },
              textTransformations: urlDecoded,
            },
          },
        },
      },
    ],
  },
};

/**
 * A request to one of `routeList`'s routes: its method exactly (the "HTTP method" component, "Request components in
 * AWS WAF", https://docs.aws.amazon.com/waf/latest/developerguide/waf-rule-statement-fields-list.html) and its whole
 * path. `DELETE /session` (a sign-out, with a member's token) shares its path with the sign-in, not its method.
 */
function requestTo(routeList: readonly Route[]): CfnWebACL.StatementProperty {
  const methods = [...new Set(routeList.map((route) => route.method))];
  const perMethod = methods.map((method) => ({
    andStatement: {
      statements: [
        {
          byteMatchStatement: {
            fieldToMatch: { method: {} },
            positionalConstraint: 'EXACTLY',
            searchString: method,
            textTransformations: noTransformation,
          },
        },
        {
          regexMatchStatement: {
            regexString: exactPathsPattern(routeList.filter((route) => route.method === method)),
            fieldToMatch: { uriPath: {} },
            textTransformations: urlDecoded,
          },
        },
      ],
    },
  }));
  return perMethod.length === 1 ? perMethod[0]! : { orStatement: { statements: perMethod } };
}

/**
 * What the anonymous rule counts: a request without any credential (but the page's files), or any request to a route
 * that takes none, whatever it carries (`credentialFreeRoutes`).
 */
function anonymousRequests(routeList: readonly Route[]): CfnWebACL.StatementProperty {
  const credentialFree = credentialFreeRoutes(routeList);
  if (credentialFree.length === 0) return anonymousOutsideThePage;
  return { orStatement: { statements: [anonymousOutsideThePage, requestTo(credentialFree)] } };
}

/**
 * The regional web ACL of the API stage (rules in ../waf-rules.ts): a per-IP rate limit answered
 * by a JSON 429 with Retry-After, then a body declared over 256 KB answered by the route's 400 (the
 * lead webhook's shape on its path, the standard one elsewhere), then a much lower per-IP limit on
 * requests without any credential, answered by the same JSON 429. Everything else is allowed.
 */
export class ApiWebAcl extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: ApiWebAclProps) {
    super(scope, id);
    const settingsSegments = settingsPathSegments(props.routes);
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name: props.name,
      description:
        'CRM API: per-IP rate limits, on all requests and on anonymous ones, and bodies too large for the functions',
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(`${props.name}-all`),
      customResponseBodies: Object.fromEntries(
        Object.values(wafResponseBodies).map((body) => [
          body.key,
          { contentType: 'APPLICATION_JSON', content: body.content },
        ]),
      ),
      rules: [
        {
          name: wafRules.ipRateLimit.name,
          priority: wafRules.ipRateLimit.priority,
          statement: {
            rateBasedStatement: {
              aggregateKeyType: 'IP',
              limit: ipRateLimit.limit,
              evaluationWindowSec: ipRateLimit.evaluationWindowSec,
            },
          },
          action: blockWith(wafRules.ipRateLimit.block),
          visibilityConfig: visibility(wafRules.ipRateLimit.name),
        },
        {
          name: wafRules.leadBodyTooLarge.name,
          priority: wafRules.leadBodyTooLarge.priority,
          statement: {
            andStatement: {
              statements: [
                declaredBodyTooLarge,
                {
                  regexMatchStatement: {
                    regexString: leadPathPattern,
                    fieldToMatch: { uriPath: {} },
                    textTransformations: [{ priority: 0, type: 'URL_DECODE' }],
                  },
                },
              ],
            },
          },
          action: blockWith(wafRules.leadBodyTooLarge.block),
          visibilityConfig: visibility(wafRules.leadBodyTooLarge.name),
        },
        {
          name: wafRules.bodyTooLarge.name,
          priority: wafRules.bodyTooLarge.priority,
          statement: declaredBodyTooLarge,
          action: blockWith(wafRules.bodyTooLarge.block),
          visibilityConfig: visibility(wafRules.bodyTooLarge.name),
        },
        {
          name: wafRules.anonymousRateLimit.name,
          priority: wafRules.anonymousRateLimit.priority,
          /**
           * "If the rate-based statement includes a ScopeDownStatement, this limit is applied only to the
           * requests that match the statement" ("RateBasedStatement", AWS WAF API Reference,
           * https://docs.aws.amazon.com/waf/latest/APIReference/API_RateBasedStatement.html): a form
           * tool's address past its anonymous limit still gets its calls that carry a token through.
           */
          statement: {
            rateBasedStatement: {
              aggregateKeyType: 'IP',
              limit: anonymousRateLimit.limit,
              evaluationWindowSec: anonymousRateLimit.evaluationWindowSec,
              scopeDownStatement: anonymousRequests(props.routes),
            },
          },
          action: blockWith(wafRules.anonymousRateLimit.block),
          visibilityConfig: visibility(wafRules.anonymousRateLimit.name),
        },
        ...(settingsSegments.length > 0
          ? [
              {
                name: wafRules.settingsRateLimit.name,
                priority: wafRules.settingsRateLimit.priority,
                statement: {
                  rateBasedStatement: {
                    aggregateKeyType: 'IP',
                    limit: settingsRateLimit.limit,
                    evaluationWindowSec: settingsRateLimit.evaluationWindowSec,
                    scopeDownStatement: {
                      regexMatchStatement: {
                        regexString: settingsPathPattern(settingsSegments),
                        fieldToMatch: { uriPath: {} },
                        textTransformations: [{ priority: 0, type: 'URL_DECODE' }],
                      },
                    },
                  },
                },
                action: blockWith(wafRules.settingsRateLimit.block),
                visibilityConfig: visibility(wafRules.settingsRateLimit.name),
              },
            ]
          : []),
      ],
    });
    const association = new CfnWebACLAssociation(this, 'Association', {
      resourceArn: props.stage.stageArn,
      webAclArn: this.webAcl.attrArn,
    });
    association.node.addDependency(props.stage);
  }
}
