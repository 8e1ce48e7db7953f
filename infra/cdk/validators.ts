import { readFileSync } from 'node:fs';
import { loadAwsServiceSpecSync } from '@aws-cdk/aws-service-spec';
import { CfnGuardValidator } from '@cdklabs/cdk-validator-cfnguard';
import type {
  IPolicyValidationContext,
  IPolicyValidationPlugin,
  PolicyValidationPluginReport,
  PolicyViolation,
} from 'aws-cdk-lib';

/**
 * Policy-validation plugins of `cdk synth` (`Validations.of(app).addPlugins`): they read the written
 * templates, and any violation they report stops the synthesis. The infra tests run the same ones
 * (test/infra/template-validity.test.ts).
 */

/**
 * AWS Control Tower proactive controls (cfn-guard rules bundled with the plugin) that do not hold
 * here by design, by the name of the rule file the plugin disables, with the rule it holds and why.
 * A disabled file is off for the whole template: a later resource of the same kind is not checked.
 */
export const guardRuleExclusions: Readonly<Record<string, { rule: string; reason: string }>> = {
  'ct-apigateway-pr-2': {
    rule: 'api_gw_xray_enabled_check',
    reason:
      'X-Ray is on for the functions only: API Gateway segments record the full URL, query string included, where a webhook token may travel (same choice as Serverless-APIGWXrayEnabled in stack.ts).',
  },
  'ct-cloudwatch-pr-2': {
    rule: 'cloudwatch_log_group_retention_period_check',
    reason:
      "Logs are kept a month (infra/cdk/log-retention.ts), not the 365 days the control asks: they serve incident follow-up, error details tied to people's records should not outlive that need, and the data itself has point-in-time recovery.",
  },
  'ct-cloudwatch-pr-3': {
    rule: 'cloudwatch_log_group_encrypted_check',
    reason:
      'CloudWatch Logs encrypts every log group at rest with its own keys; a customer-managed KMS key (about $1 a month plus its requests, and a key policy to maintain) adds control over the key, which no requirement of this service asks for.',
  },
  'ct-dynamodb-pr-2': {
    rule: 'dynamodb_table_encrypted_kms_check',
    reason:
      'DynamoDB encrypts every table at rest; the table uses the AWS owned key (no cost). A KMS key would bill KMS requests on table access and a customer-managed one a monthly fee, for a control over the key no requirement asks for.',
  },
  'ct-lambda-pr-2': {
    rule: 'lambda_function_public_access_prohibited_check',
    reason:
      'False positive: every Lambda permission is for apigateway.amazonaws.com with SourceArn set to this API\'s own execute-api ARN; the ARN is built with Fn::Join, which the rule does not count as a "valid local reference".',
  },
  'ct-lambda-pr-3': {
    rule: 'lambda_inside_vpc_check',
    reason:
      'The functions reach nothing but DynamoDB and X-Ray, through their HTTPS endpoints with IAM-signed requests; in a VPC they would need a DynamoDB gateway endpoint plus an X-Ray interface endpoint or a NAT gateway (hourly charges per zone) and would gain no isolation the service needs.',
  },
  'ct-s3-pr-2': {
    rule: 's3_bucket_logging_enabled_check',
    reason:
      'The stream batches given up (outbound-events.ts) are written by Lambda with the stream handler’s role and read by the admin command line only: IAM-signed calls that CloudTrail data events record when the account’s trail turns them on. The settings page’s files (constructs/settings-page.ts) are read only by API Gateway, whose access logs record each request. An access-log bucket would be one more store to secure (same choice as AwsSolutions-S1).',
  },
  'ct-s3-pr-4': {
    rule: 's3_event_notifications_enabled_check',
    reason:
      'A batch written to the stream-failure bucket is already counted by the stream mapping (OnFailureDestinationDeliveredEventCount) and alarmed (StreamFailures); the settings page’s bucket is written only by the stack’s own deployments. A notification would only say it twice, and CDK configures bucket notifications through a custom-resource Lambda function.',
  },
  'ct-s3-pr-9': {
    rule: 's3_bucket_object_lock_enabled_check',
    reason:
      'The stream-failure bucket holds personal data meant to go: a batch is removed once replayed and expires after 14 days (docs/events.md); Object Lock would keep what must be deleted. The settings page’s files are rebuilt from the repository at every deployment.',
  },
  'ct-s3-pr-10': {
    rule: 's3_bucket_default_encryption_kms_check',
    reason:
      'The settings page’s bucket (constructs/settings-page.ts) is encrypted with S3’s own keys (SSE-S3): its files are public by design, served to anyone who opens the page, and API Gateway’s role reads them with no KMS grant to maintain. The stream-failure bucket, which holds personal data, has a KMS key of its own.',
  },
};

/** Control Tower guard rules (cfn-guard binary shipped in the npm package), minus the exclusions above. */
export const cfnGuardValidator = (): CfnGuardValidator =>
  new CfnGuardValidator({ disabledRules: Object.keys(guardRuleExclusions) });

/** The few shapes of the service spec database this file reads (@aws-cdk/service-spec-types). */
type SpecType =
  | { type: 'string'; allowedValues?: string[] }
  | { type: 'integer'; allowedValues?: number[] }
  | { type: 'number' | 'boolean' | 'json' | 'date-time' | 'null' | 'tag' }
  | { type: 'ref'; reference: { $ref: string } }
  | { type: 'array' | 'map'; element: SpecType }
  | { type: 'union'; types: SpecType[] };
type SpecProperty = { type: SpecType; previousTypes?: SpecType[]; required?: boolean };
type SpecProperties = Record<string, SpecProperty>;

type Spec = {
  resource: (cfnType: string) => SpecProperties | undefined;
  definition: (ref: string) => SpecProperties;
};

let spec: Spec | undefined;

/** The CloudFormation registry schemas as the CDK imports them (npm @aws-cdk/aws-service-spec), loaded once. */
function loadSpec(): Spec {
  if (spec) return spec;
  const db = loadAwsServiceSpecSync();
  spec = {
    resource: (cfnType) => {
      const found = db.lookup('resource', 'cloudFormationType', 'equals', cfnType);
      return found.length === 1 ? (found[0]!.properties as unknown as SpecProperties) : undefined;
    },
    definition: (ref) => db.get('typeDefinition', ref).properties as unknown as SpecProperties,
  };
  return spec;
}

/** Resource attributes CloudFormation accepts besides Type and Properties. */
const resourceAttributes = new Set([
  'Type',
  'Properties',
  'DependsOn',
  'Metadata',
  'Condition',
  'DeletionPolicy',
  'UpdateReplacePolicy',
  'CreationPolicy',
  'UpdatePolicy',
]);

/**
 * Types CloudFormation handles itself, absent from the registry: AWS::CDK::Metadata is the CDK's
 * version report, which CloudFormation accepts without a schema.
 */
const typesWithoutSchema = new Set(['AWS::CDK::Metadata']);

/**
 * A custom resource, `Custom::<name>` (the CDK's bucket deployments): its properties are its provider's, and
 * CloudFormation requires only `ServiceToken`, the provider's ARN ("AWS::CloudFormation::CustomResource",
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-cloudformation-customresource.html).
 */
const isCustomResource = (type: string): boolean => type.startsWith('Custom::');

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `{ Ref }`, `{ "Fn::…" }` or `{ Condition }`: resolved by CloudFormation, not checkable here. */
const isIntrinsic = (value: unknown): boolean => {
  if (!isObject(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && (keys[0] === 'Ref' || keys[0] === 'Condition' || keys[0]!.startsWith('Fn::'));
};

const show = (value: unknown): string => JSON.stringify(value)?.slice(0, 80) ?? String(value);

/** Findings of one value against one type of the spec; empty when the value conforms. */
function checkValue(value: unknown, type: SpecType, at: string): string[] {
  if (isIntrinsic(value)) return [];
  const wrong = (expected: string): string[] => [`${at}: expected ${expected}, got ${show(value)}`];
  switch (type.type) {
    case 'string':
    case 'date-time':
      if (typeof value !== 'string') return wrong(type.type);
      if ('allowedValues' in type && type.allowedValues && !type.allowedValues.includes(value))
        return wrong(`one of ${type.allowedValues.join(', ')}`);
      return [];
    case 'integer':
    case 'number': {
      /** CloudFormation takes numbers written as strings too. */
      const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof number !== 'number' || Number.isNaN(number)) return wrong(type.type);
      if (type.type === 'integer' && !Number.isInteger(number)) return wrong('integer');
      if ('allowedValues' in type && type.allowedValues && !type.allowedValues.includes(number))
        return wrong(`one of ${type.allowedValues.join(', ')}`);
      return [];
    }
    case 'boolean':
      return typeof value === 'boolean' || value === 'true' || value === 'false' ? [] : wrong('boolean');
    case 'json':
      return [];
    case 'null':
      return value === null ? [] : wrong('null');
    case 'tag':
      return checkProperties(
        value,
        { Key: { type: { type: 'string' }, required: true }, Value: { type: { type: 'string' }, required: true } },
        at,
      );
    case 'ref':
      return checkProperties(value, loadSpec().definition(type.reference.$ref), at);
    case 'array':
      return Array.isArray(value)
        ? value.flatMap((item, i) => checkValue(item, type.element, `${at}[${i}]`))
        : wrong('array');
    case 'map':
      return isObject(value)
        ? Object.entries(value).flatMap(([key, item]) => checkValue(item, type.element, `${at}.${key}`))
        : wrong('map');
    case 'union':
      return type.types.some((member) => checkValue(value, member, at).length === 0)
        ? []
        : wrong(`one of the union's ${type.types.map((member) => member.type).join(' | ')}`);
  }
}

/** Required properties present, no unknown one, each of its type (the current one or an earlier one). */
function checkProperties(value: unknown, properties: SpecProperties, at: string): string[] {
  if (!isObject(value)) return [`${at}: expected an object, got ${show(value)}`];
  const findings: string[] = [];
  for (const [name, property] of Object.entries(properties))
    if (property.required && !(name in value)) findings.push(`${at}: required property ${name} missing`);
  for (const [name, item] of Object.entries(value)) {
    const property = properties[name];
    if (!property) {
      findings.push(`${at}: unknown property ${name}`);
      continue;
    }
    const types = [property.type, ...(property.previousTypes ?? [])];
    const results = types.map((type) => checkValue(item, type, `${at}.${name}`));
    if (results.every((result) => result.length > 0)) findings.push(...results[0]!);
  }
  return findings;
}

type Template = { Resources?: Record<string, Record<string, unknown>> };

/** Every finding of a template's resources against the registry schemas, one line each. */
export function resourceSchemaFindings(template: Template): string[] {
  return Object.entries(template.Resources ?? {}).flatMap(([id, resource]) => {
    const type = resource.Type;
    const unknownAttributes = Object.keys(resource)
      .filter((key) => !resourceAttributes.has(key))
      .map((key) => `${id}: unknown resource attribute ${key}`);
    if (typeof type !== 'string') return [...unknownAttributes, `${id}: no Type`];
    if (typesWithoutSchema.has(type)) return unknownAttributes;
    if (isCustomResource(type))
      return isObject(resource.Properties) && 'ServiceToken' in resource.Properties
        ? unknownAttributes
        : [...unknownAttributes, `${id} (${type}): required property ServiceToken missing`];
    const properties = loadSpec().resource(type);
    if (!properties) return [...unknownAttributes, `${id}: unknown resource type ${type}`];
    return [...unknownAttributes, ...checkProperties(resource.Properties ?? {}, properties, `${id} (${type})`)];
  });
}

/** The finding's resource id: the text before the first ":" or " (". */
const resourceIdOf = (finding: string): string => finding.split(/:| \(/, 1)[0]!;

/**
 * The registry-schema check as a policy-validation plugin: one violation per resource with findings,
 * the findings in its description.
 */
export class ResourceSchemaValidator implements IPolicyValidationPlugin {
  readonly name = 'cloudformation-resource-schemas';

  validate(context: IPolicyValidationContext): PolicyValidationPluginReport {
    const violations: PolicyViolation[] = context.templatePaths.flatMap((templatePath) => {
      const findings = resourceSchemaFindings(JSON.parse(readFileSync(templatePath, 'utf8')) as Template);
      const byResource = new Map<string, string[]>();
      for (const finding of findings)
        byResource.set(resourceIdOf(finding), [...(byResource.get(resourceIdOf(finding)) ?? []), finding]);
      return [...byResource].map(([resourceLogicalId, lines]) => ({
        ruleName: 'resource-matches-registry-schema',
        description: lines.join('\n'),
        fix: 'Correct the resource properties to the CloudFormation registry schema of the type.',
        violatingResources: [{ resourceLogicalId, templatePath, locations: [`/Resources/${resourceLogicalId}`] }],
      }));
    });
    return { success: violations.length === 0, violations };
  }
}

/** The plugins `cdk synth` runs (infra/cdk/app.ts) and the tests run. */
export const policyValidators = (): IPolicyValidationPlugin[] => [new ResourceSchemaValidator(), cfnGuardValidator()];
