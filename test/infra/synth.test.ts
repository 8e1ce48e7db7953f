import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { productionStage } from '../../infra/cdk/stack';
import { messages } from '../../lib/messages';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const projectRoot = fileURLToPath(new URL('../../', import.meta.url));
/** cdk.json's context: the feature flags `cdk synth` passes the app. */
const cdkContext = (JSON.parse(readFileSync(join(projectRoot, 'cdk.json'), 'utf8')) as Json).context as Json;

type Run = { code: number | null; stderr: string; outdir: string };

/**
 * The app entry (infra/cdk/app.ts) run as `cdk synth` runs it ("app": cdk.json): the CLI hands it the context in
 * CDK_CONTEXT_JSON, where to write in CDK_OUTDIR, and the environment in CDK_DEFAULT_ACCOUNT and CDK_DEFAULT_REGION;
 * the app synthesizes when it ends, its policy validators and the cdk-nag packs included, and exits 1 on any finding.
 * Bundling is skipped (`aws:cdk:bundling-stacks`, as the CLI sets it for the stacks it does not deploy): the
 * functions' esbuild runs take most of a full `npm run synth`, which CI runs (.ci/run).
 */
function synth(environment: Record<string, string>, context: Json = {}): Promise<Run> {
  const outdir = mkdtempSync(join(tmpdir(), 'crm-synth-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/cdk/app.ts'], {
    cwd: projectRoot,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      CDK_OUTDIR: outdir,
      CDK_CONTEXT_JSON: JSON.stringify({ ...cdkContext, 'aws:cdk:bundling-stacks': [], ...context }),
      ...environment,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr, outdir }));
  });
}

const deployment = { CDK_DEFAULT_ACCOUNT: '123456789012', CDK_DEFAULT_REGION: 'eu-west-3' };

describe('the CDK app, as `cdk synth` runs it', () => {
  let deployed: Run | undefined;
  beforeAll(async () => {
    deployed = await synth(deployment);
  }, 240_000);
  afterAll(() => {
    if (deployed !== undefined) rmSync(deployed.outdir, { recursive: true, force: true });
  });

  /**
   * What `cdk deploy` builds: the account and region written into the stack. Without credentials the CLI gives a
   * region alone: CI synthesizes so (`AWS_REGION=eu-west-3 npm run synth`, .ci/run), the other infra tests build all
   * three ways.
   */
  test('with an account and a region: exit 0, every policy validator and cdk-nag pack satisfied', () => {
    expect({ code: deployed?.code, stderr: deployed?.stderr }).toEqual({ code: 0, stderr: '' });
    const report = JSON.parse(readFileSync(join(deployed!.outdir, 'validation-report.json'), 'utf8')) as Json;
    expect(report.pluginReports).toEqual([]);
  });

  test('the template written holds them: the CDK’s assets bucket of that account and region, read by the page’s deployment', () => {
    const template = JSON.parse(readFileSync(join(deployed!.outdir, 'Crm-dev.template.json'), 'utf8')) as Json;
    expect(JSON.stringify(template.Resources)).toContain('cdk-hnb659fds-assets-123456789012-eu-west-3');
    const [client] = Object.values(template.Resources as Record<string, Json>).filter(
      (resource) => resource.Type === 'AWS::Cognito::UserPoolClient',
    );
    // As CloudFormation receives it: `email` not writable with an access token (infra/cdk/constructs/user-pool.ts).
    expect(client!.Properties.WriteAttributes).toEqual(['zoneinfo']);
  });

  test('-c tableIndexes below the indexes the table has had since before the lists: exit 1, saying why in French', async () => {
    const run = await synth(deployment, { tableIndexes: '3' });
    rmSync(run.outdir, { recursive: true, force: true });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(messages.deployment.invalidTableIndexes('3', 4, 6));
  }, 60_000);

  test(`-c stage=${productionStage} without an SES sender: exit 1, saying why in French`, async () => {
    const run = await synth(deployment, { stage: productionStage });
    rmSync(run.outdir, { recursive: true, force: true });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(messages.deployment.productionWithoutSesSender(productionStage));
  }, 60_000);
});
