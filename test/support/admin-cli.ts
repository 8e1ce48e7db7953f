import { execFile } from 'node:child_process';

export type AdminRun = { code: number; stdout: string; stderr: string };

/** The admin command line as a user runs it: a child process on the test table. */
export function runAdmin(...args: string[]): Promise<AdminRun> {
  return new Promise((resolve) => {
    execFile(
      'node_modules/.bin/tsx',
      ['infra/admin/cli.ts', ...args],
      { env: { ...process.env, PUBLIC_BASE_URL: 'http://crm.test' } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}
