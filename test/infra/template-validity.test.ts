import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { CfnGuardValidator } from '@cdklabs/cdk-validator-cfnguard';
import type { Environment, IPolicyValidationContext, PolicyViolation } from 'aws-cdk-lib';
import { CrmStack } from '../../infra/cdk/stack';
import {
  guardRuleExclusions,
  policyValidators,
  ResourceSchemaValidator,
  resourceSchemaFindings,
} from '../../infra/cdk/validators';
import { testApp } from '../support/cdk-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Built as the other infra tests build it, and the one synthesis with the CDK's own validation (support/cdk-app.ts). */
const app = testApp({ builtinValidation: true });
const stack = new CrmStack(app, 'Crm-test', { stage: 'test' });
const assembly = app.synth();
const templatePath = assembly.getStackArtifact(stack.artifactId).templateFullPath;
const template = JSON.parse(readFileSync(templatePath, 'utf8')) as Json;
const context: IPolicyValidationContext = {
  templatePaths: [templatePath],
  stackTemplates: [{ stackConstructPath: stack.node.path, templatePath, accountId: undefined, region: undefined }],
  appConstruct: app,
};

/** The plugin's Control Tower rule files the exclusions name (`<name>.guard`, one folder per service). */
const controlTowerRules = join(
  dirname(createRequire(import.meta.url).resolve('@cdklabs/cdk-validator-cfnguard')),
  '../rules/control-tower/cfn-guard',
);
const excludedRuleFiles = readdirSync(controlTowerRules, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.guard') && Object.hasOwn(guardRuleExclusions, basename(file, '.guard')))
  .map((file) => join(controlTowerRules, file));

const described = (violations: PolicyViolation[]): string[] =>
  violations.map(
    (v) => `${v.ruleName}: ${v.violatingResources.map((r) => r.resourceLogicalId).join(', ')}\n${v.description}`,
  );

describe('the CDK’s own CloudFormation validation', () => {
  test('ran at synthesis and found nothing', () => {
    // Written by each synthesis a validation runs in, one report per plugin with findings (annotations included).
    const report = JSON.parse(readFileSync(join(assembly.directory, 'validation-report.json'), 'utf8')) as Json;
    expect((report.pluginReports as Json[]).flatMap((plugin) => plugin.violations as Json[])).toEqual([]);
  });
});

describe('CloudFormation registry schemas', () => {
  test('every resource: required properties present, no unknown property, every value of its type', () => {
    expect(resourceSchemaFindings(template)).toEqual([]);
  });

  test('the check catches a missing, an unknown, a mistyped and an out-of-range property; a custom resource’s token', () => {
    const broken = structuredClone(template);
    const [id, fn] = Object.entries(broken.Resources as Record<string, Json>).find(
      ([, r]) => r.Type === 'AWS::Lambda::Function',
    )!;
    delete fn.Properties.Role;
    fn.Properties.Timout = 10;
    fn.Properties.MemorySize = 'large';
    fn.Properties.TracingConfig = { Mode: 'Always' };
    broken.Resources.Bogus = { Type: 'AWS::Nothing::Here', Properties: {} };
    // A custom resource (the settings page's deployments): its properties are its provider's, but ServiceToken.
    const [customId, custom] = Object.entries(broken.Resources as Record<string, Json>).find(([, r]) =>
      (r.Type as string).startsWith('Custom::'),
    )!;
    delete custom.Properties.ServiceToken;
    expect(resourceSchemaFindings(broken).sort()).toEqual(
      [
        `${id} (AWS::Lambda::Function): required property Role missing`,
        `${id} (AWS::Lambda::Function): unknown property Timout`,
        `${id} (AWS::Lambda::Function).MemorySize: expected integer, got "large"`,
        `${id} (AWS::Lambda::Function).TracingConfig.Mode: expected one of Active, PassThrough, got "Always"`,
        'Bogus: unknown resource type AWS::Nothing::Here',
        `${customId} (${custom.Type as string}): required property ServiceToken missing`,
      ].sort(),
    );
  });

  test('as a policy-validation plugin: no violation', () => {
    expect(described(new ResourceSchemaValidator().validate(context).violations)).toEqual([]);
  });
});

/**
 * The template as `cdk synth` writes it with a region alone (the CLI without credentials): ARNs and names then hold it
 * as a literal. The registry schemas hold. With an account too (`cdk deploy`), the registry schemas, the guard rules
 * and cdk-nag are those of the app's own synthesis (test/infra/synth.test.ts: exit 0, an empty validation report).
 */
describe('with the region of a deployment', () => {
  test('the registry schemas plugin finds nothing', () => {
    const env: Environment = { region: 'eu-west-3' };
    const deployedApp = testApp();
    const deployed = new CrmStack(deployedApp, 'Crm-test', { stage: 'test', env });
    const written = deployedApp.synth().getStackArtifact(deployed.artifactId).templateFullPath;
    expect(readFileSync(written, 'utf8')).toContain('eu-west-3');
    const deployedContext: IPolicyValidationContext = {
      templatePaths: [written],
      stackTemplates: [
        { stackConstructPath: deployed.node.path, templatePath: written, accountId: undefined, region: env.region },
      ],
      appConstruct: deployedApp,
    };
    expect(described(new ResourceSchemaValidator().validate(deployedContext).violations)).toEqual([]);
  });
});

/**
 * Every enabled rule file runs where the templates are whole: without an account or region on both templates, the
 * settings API's nested one included (test/infra/template-size.test.ts), and with an account and a region in the
 * app's own synthesis, which stops on any finding (test/infra/synth.test.ts). A run takes about half a minute a
 * template; here, the exclusions alone.
 */
describe('AWS Control Tower guard rules (cfn-guard)', () => {
  test('each exclusion is needed (its rule fires without it) and carries a written reason', () => {
    // The excluded rule files alone, each fired on its own: the runs named above hold every other rule file
    // (guard evaluates each file apart), and this run takes a tenth of the time of all 237 of them.
    const fired = new CfnGuardValidator({ controlTowerRulesEnabled: false, rules: excludedRuleFiles })
      .validate(context)
      .violations.map((v) => v.ruleName)
      .sort();
    expect(excludedRuleFiles).toHaveLength(Object.keys(guardRuleExclusions).length);
    const excluded = Object.values(guardRuleExclusions)
      .map(({ rule }) => rule)
      .sort();
    expect(fired).toEqual(excluded);
    for (const { reason } of Object.values(guardRuleExclusions)) expect(reason.length).toBeGreaterThan(40);
  });

  test('synth runs both plugins', () => {
    expect(policyValidators().map((plugin) => plugin.name)).toEqual([
      'cloudformation-resource-schemas',
      'cdk-validator-cfnguard',
    ]);
  });
});
