import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import {
  contentLengthPattern,
  ipRateLimit,
  leadPathPattern,
  wafResponseBodies,
  wafRules,
  type WafBlock,
} from '../waf-rules';

export type ApiWebAclProps = { stage: Stage; name: string };

const noTransformation = [{ priority: 0, type: 'NONE' }];

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
 * The regional web ACL of the API stage (rules in ../waf-rules.ts): a per-IP rate limit answered
 * by a JSON 429 with Retry-After, then a body declared over 256 KB answered by the route's 400 (the
 * lead webhook's shape on its path, the standard one elsewhere). Everything else is allowed.
 */
export class ApiWebAcl extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: ApiWebAclProps) {
    super(scope, id);
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name: props.name,
      description: 'CRM API: per-IP rate limit and bodies too large for the functions',
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
      ],
    });
    const association = new CfnWebACLAssociation(this, 'Association', {
      resourceArn: props.stage.stageArn,
      webAclArn: this.webAcl.attrArn,
    });
    association.node.addDependency(props.stage);
  }
}
