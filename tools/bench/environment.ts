import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import { version as esbuildVersion } from 'esbuild';
import type { Environment } from './results';

/** What the figures were measured on, for the report's reader to weigh them. */
export function describeEnvironment(): Environment {
  const java = spawnSync('java', ['-version'], { encoding: 'utf8' });
  const autocannon = createRequire(import.meta.url)('autocannon/package.json') as { version: string };
  return {
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown CPU',
    cores: os.cpus().length,
    memoryGb: Math.round(os.totalmem() / 1024 ** 3),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    java: (java.stderr || java.stdout).split('\n')[0]?.trim() ?? 'Java',
    autocannon: autocannon.version,
    esbuild: esbuildVersion,
  };
}
