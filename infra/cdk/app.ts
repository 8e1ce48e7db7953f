import '../../node-major.js'; // first: on another Node major, nothing else runs
import { App, Validations } from 'aws-cdk-lib';
import { applyNagPacks } from './nag';
import { CrmStack } from './stack';
import { policyValidators } from './validators';

/**
 * Policy validation runs on the written templates: every resource against its CloudFormation
 * registry schema, then the AWS Control Tower guard rules (cfn-guard); any violation stops the synth.
 */
const app = new App();
Validations.of(app).addPlugins(...policyValidators());
const stage: unknown = app.node.tryGetContext('stage') ?? 'dev';
/** The stage names the stack, the API and its stage: letters, digits and hyphens keep all three valid. */
if (typeof stage !== 'string' || !/^[a-z][a-z0-9-]{0,19}$/.test(stage)) {
  throw new Error(`Stage invalide : ${String(stage)} (lettres minuscules, chiffres et tirets, 20 caractères au plus)`);
}
const context = (key: string): string | undefined => app.node.tryGetContext(key) as string | undefined;
const sesFromEmail = context('sesFromEmail');
new CrmStack(app, `Crm-${stage}`, {
  stage,
  /** The members' invitations and reset codes from an SES-verified address (docs/deploy.md#member-sign-in). */
  sesSender: sesFromEmail
    ? { fromEmail: sesFromEmail, fromName: context('sesFromName'), sesRegion: context('sesRegion') }
    : undefined,
  threatProtection: context('threatProtection') === 'on',
  /** POWERTOOLS_LOG_LEVEL of every function (`-c logLevel=DEBUG`); the stack refuses an unknown level. */
  logLevel: app.node.tryGetContext('logLevel') as string | undefined,
  /** An existing table takes one new index per deployment (docs/deploy.md#new-indexes): `-c tableIndexes=5`. */
  ...(context('tableIndexes') === undefined ? {} : { tableIndexes: Number(context('tableIndexes')) }),
  description: `CRM ingestion service (${stage})`,
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
applyNagPacks(app);
