import { formatBytes, maxColdStartRatio } from './budgets';
import { ms, table } from './markdown';
import type { BenchResults, FunctionResult } from './results';

export function functionsSection(results: BenchResults): string {
  const { reference, environment } = results;
  const sorted = [...results.functions].sort((a, b) => b.bytes - a.bytes);
  const name = (result: FunctionResult) => (result === reference ? '_reference_' : `\`${result.name}\``);
  const ratio = (value: number, of: number) => `${(value / of).toFixed(2)} ×`;
  return [
    '## 1. Bundle size and cold start',
    '',
    `Every function of the stack is bundled with the options \`RouteFunction\` deploys with (\`infra/cdk/bundling.ts\`,
shared by the construct and the bench: the bundles are byte for byte the \`cdk synth\` assets). Sizes in decimal units
(1 KB = 1,000 bytes); zod, AWS SDK (\`@aws-sdk/*\`, \`@smithy/*\`) and own code are esbuild's attribution of the
minified output.`,
    '',
    table(
      ['Function', 'Bundle', 'zod', 'AWS SDK', 'Own code'],
      [...sorted, reference].map((result) => [
        name(result),
        formatBytes(result.bytes),
        formatBytes(result.parts.zod),
        formatBytes(result.parts.sdk),
        formatBytes(result.parts.app),
      ]),
      [1, 2, 3, 4],
    ),
    '',
    `A cold start is a fresh Node process that imports the bundle and answers its first event, doing the route's real
work against DynamoDB Local (a new lead, a new candidate, a tag the prospect lacks): the time from the process's
start (its time origin) to the answer. It splits into Node's own start, the module load (parse and module scope: clients, schemas)
and the first answer (the SDK's first requests included). The reference is bundled the same way and only creates the
DynamoDB document client (\`lib/storage/client.ts\`) and answers after one \`GetItem\`
(\`infra/bench/reference-function.ts\`): a ratio is what a function's own code adds. The budget is
${maxColdStartRatio} × for the heaviest bundle.`,
    '',
    `Medians of ${reference.coldStart.runs} runs, after one unmeasured round, the runs interleaved across functions.`,
    '',
    `The CPU time the process used is shown too: other jobs on the machine inflate it less than elapsed time. On a busy
machine every time grows and the elapsed-time ratios shrink; the one-minute load average at the end of these runs was
${results.coldStartLoadAverage.toFixed(1)} on ${environment.cores} cores, the bench's own processes included.`,
    '',
    table(
      ['Function', 'Cold start', 'Node start', 'Load', 'First answer', 'Ratio', 'CPU time', 'CPU ratio'],
      [...sorted, reference].map((result) => [
        name(result),
        ms(result.coldStart.totalMs),
        ms(result.coldStart.nodeStartMs),
        ms(result.coldStart.loadMs),
        ms(result.coldStart.firstAnswerMs),
        ratio(result.coldStart.totalMs, reference.coldStart.totalMs),
        ms(result.coldStart.cpuMs),
        ratio(result.coldStart.cpuMs, reference.coldStart.cpuMs),
      ]),
      [1, 2, 3, 4, 5, 6, 7],
    ),
    '',
    `On AWS the functions run \`nodejs22.x\` on arm64 with 512 MB; here they ran on Node ${environment.node} on this
machine. Absolute times differ on Lambda; the ratios are what this measure is for.`,
  ].join('\n');
}
