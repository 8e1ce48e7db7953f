import { execFile } from 'node:child_process';
import { main, type AdminIo } from '../../tools/admin/main';
import type { Deps } from '../../lib/storage/client';
import { recordingIdentityProvider, type RecordingIdentityProvider } from './recording-identity';

export type AdminRun = { code: number; stdout: string; stderr: string };

const env = { ...process.env, PUBLIC_BASE_URL: 'http://crm.test' };

/**
 * The admin command line as a user runs it (`tsx tools/admin/cli.ts`): a child process on the test table, on
 * the Node running the tests (tsx's launcher starts its own child on the Node that runs it), not the first
 * `node` on the PATH.
 */
export function runAdmin(...args: string[]): Promise<AdminRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['node_modules/tsx/dist/cli.mjs', 'tools/admin/cli.ts', ...args],
      { env },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

/**
 * The same command line in this process, on the caller's table client: milliseconds instead of a
 * tsx start, wherever the process itself is not what a test checks (test/e2e/admin-cli.test.ts checks it).
 * Only the process around `main` (cli.ts) is left out, and the identity provider `member add` invites with
 * is a recording test double (test/support/recording-identity.ts).
 */
export async function runAdminInProcess(deps: Deps, ...args: string[]): Promise<AdminRun> {
  return runAdminWithIdentity(deps, recordingIdentityProvider(), ...args);
}

/** In process, with the identity provider given: a test reads what `member add` asked of it. */
export async function runAdminWithIdentity(
  deps: Deps,
  identity: RecordingIdentityProvider,
  ...args: string[]
): Promise<AdminRun> {
  return runMain(args, { deps, identity });
}

/**
 * In process, `member add` inviting with the identity provider the command line finds itself on local tables
 * (tools/admin/target.ts): the run's, found through the table, with which the invited person really signs in.
 */
export async function runAdminWithLocalIdentity(deps: Deps, ...args: string[]): Promise<AdminRun> {
  return runMain(args, { deps });
}

async function runMain(args: string[], io: Pick<AdminIo, 'deps' | 'identity'>): Promise<AdminRun> {
  const run: AdminRun = { code: 0, stdout: '', stderr: '' };
  run.code = await main(args, {
    ...io,
    env,
    stdout: (text) => void (run.stdout += text),
    stderr: (text) => void (run.stderr += text),
  });
  return run;
}
