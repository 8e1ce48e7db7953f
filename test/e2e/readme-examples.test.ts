import { jest } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { freePort } from '../../tools/local/dynamodb-local';
import { timeoutForProcesses } from '../support/process-starts';

/**
 * README.md's first hour as printed (README.md#running-locally): `npm start` in one terminal; in another, the `export`
 * line it printed, then every `sh` block of the README in order, each in a subshell of its own, so that a block using
 * what only an earlier block set fails here as it would for a reader.
 */

// npm start (tsx, its tables on the run's DynamoDB Local, cognito-local), then the admin command line six times.
jest.setTimeout(timeoutForProcesses(7));

const skipMarker = '# Not run by test/e2e/readme-examples.test.ts';

type Block = { section: string; code: string };

/** The README's fenced `sh` (or `bash`) blocks, in order, with the `##` heading each is under. */
function shellBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  let section = '';
  let fence: { shell: boolean; lines: string[] } | undefined;
  for (const line of markdown.split('\n')) {
    if (fence === undefined) {
      if (line.startsWith('```')) fence = { shell: /^```(sh|bash)\s*$/.test(line), lines: [] };
      else if (line.startsWith('## ')) section = line.slice(3);
    } else if (/^```\s*$/.test(line)) {
      if (fence.shell) blocks.push({ section, code: fence.lines.join('\n') });
      fence = undefined;
    } else {
      fence.lines.push(line);
    }
  }
  return blocks;
}

/** A command that reaches AWS, installs, or starts what the examples run against: its block must carry the marker. */
const notAnExample = /--aws\b|\bcdk\b|(^|[\s;|&(])aws\s|AWS_PROFILE|\bnpm (ci|install|start|test)\b/m;

/** Blocks by what they call → what their output shows when they did what the README says. */
const expectedOutputs: Array<[RegExp, RegExp]> = [
  [/webhooks\/ingest-lead.*-d @-/s, /"status":"created".*"tags_applied":\[\{"id":"[0-9a-f-]{36}","name":"VIP"\}\]/],
  [/webhooks\/ingest-lead.*--data-urlencode/s, /"status":"created".*"tags_applied":\[\{[^\]]*\},\{[^\]]*\}\]/],
  [/\/fields".*webhooks\/ingest-lead/s, /"key":"situation".*"fields":\{"budget":250000,"situation":"Propriétaire"\}/s],
  [/webhooks\/recruitment/, /"ok":true,"talent_id":"[0-9a-f-]{36}","action":"created"/],
  [/-X DELETE "\$API\/prospects/, /"outcome":"added".*"outcome":"removed"/],
  [/api-keys/, /"secret":"crm_key_/],
  [/workspace list/, /Démo/],
  [/changelog undo/, /Modification [0-9a-f-]{36} annulée/],
  [/subscription create/, /"secret": "whsec_/],
];

const running = new Set<ChildProcess>();

function started(child: ChildProcess): { output: () => string; exited: Promise<[number | null]> } {
  running.add(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = once(child, 'exit') as Promise<[number | null]>;
  void exited.then(() => running.delete(child));
  return { output: () => output, exited };
}

/** Until `pattern` is printed, or the command exits (an error): no clock, the test's timeout bounds it. */
async function waitForOutput(child: ChildProcess, output: () => string, pattern: RegExp): Promise<RegExpMatchArray> {
  for (;;) {
    const match = pattern.exec(output());
    if (match) return match;
    if (child.exitCode !== null) throw new Error(`npm start exited early:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

afterEach(() => {
  // Each process in a group of its own: the shell's curl and npm children, start.ts's cognito-local, go with it.
  for (const child of running) if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
});

test("the README's local examples run as printed, in order, against npm start", async () => {
  const blocks = shellBlocks(readFileSync(new URL('../../README.md', import.meta.url), 'utf8'));
  const examples = blocks.filter((block) => !block.code.startsWith(skipMarker));
  const commands = (block: Block) => block.code.replace(/^\s*#.*$/gm, '');
  expect(examples.filter((block) => notAnExample.test(commands(block)))).toEqual([]);
  for (const [code] of expectedOutputs) expect(examples.filter((block) => code.test(block.code))).not.toEqual([]);

  // As the README's reader starts it, on ports of its own and a table of its own on the run's DynamoDB Local.
  const port = await freePort();
  const server = spawn(process.execPath, ['--import', 'tsx', 'tools/local/start.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      TABLE_NAME: `crm-readme-${randomUUID()}`,
      SECRETS_TABLE_NAME: undefined,
      DATA_DIR: undefined,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const serverRun = started(server);
  const exportLine = (
    await waitForOutput(
      server,
      serverRun.output,
      /Pour les exemples du README, dans un autre terminal :\n\s*(export .*)/,
    )
  )[1] as string;
  await waitForOutput(server, serverRun.output, /API locale prête sur/);

  // The other terminal knows nothing of npm start's environment but what the export line gives it.
  const env = { ...process.env };
  for (const name of ['DYNAMODB_ENDPOINT', 'DYNAMODB_LOCAL_PORT', 'TABLE_NAME', 'SECRETS_TABLE_NAME', 'PORT']) {
    delete env[name];
  }
  const separator = `--- block ${randomUUID()} `;
  const script = [
    'set -euo pipefail',
    'exec 2>&1',
    exportLine,
    ...examples.map((block, index) => `printf '\\n${separator}%s\\n' ${index}\n(\n${block.code}\n)`),
  ].join('\n');
  const shell = spawn('bash', ['-c', script], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const shellRun = started(shell);
  const [code] = await shellRun.exited;
  const outputs = shellRun.output().split(separator).slice(1);
  const ran = outputs.map((output, index) => ({ section: examples[index]?.section, output }));

  const last = ran.at(-1);
  expect(code === 0 ? 'exit 0' : `exit ${code} in « ${last?.section} »:\n${last?.output}`).toBe('exit 0');
  expect(ran).toHaveLength(examples.length);
  for (const [index, { section, output }] of ran.entries()) {
    const printed = output.replace(/^\d+\n/, '').trim();
    // Something printed, no error answer, no warning of a webhook: what the block sends is what the README says works.
    expect({ section, printed }).toEqual({ section, printed: expect.stringMatching(/\S/) });
    expect({ section, printed }).not.toEqual({ section, printed: expect.stringMatching(/"error"\s*:|Erreur/) });
    expect({ section, printed }).not.toEqual({ section, printed: expect.stringMatching(/"warnings":\[[^\]]/) });
    for (const [calls, shows] of expectedOutputs) {
      if (calls.test(examples[index]?.code ?? ''))
        expect({ section, printed }).toEqual({ section, printed: expect.stringMatching(shows) });
    }
  }

  server.kill('SIGTERM');
  const [serverCode] = await serverRun.exited;
  expect(serverCode).toBe(0);
});
