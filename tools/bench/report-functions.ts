import { beforeAfter } from './baseline';
import { formatBytes, maxColdStartRatio } from './budgets';
import { ms, table } from './markdown';
import type { BenchResults, FunctionResult } from './results';

export function functionsSection(results: BenchResults): string {
  const { reference, environment } = results;
  const sorted = [...results.functions].sort((a, b) => b.bytes - a.bytes);
  const name = (result: FunctionResult) => (result === reference ? '_reference_' : `\`${result.name}\``);
  const ratio = (value: number, of: number) => `${(value / of).toFixed(2)} ×`;
  // A function the baseline did not bundle (added since, like the outbound-event functions) has no before.
  const before = (result: FunctionResult) =>
    result === reference
      ? { bytes: undefined, coldStartMs: results.baseline.referenceColdStartMs }
      : results.baseline.functions[result.name];
  return [
    '## 1. Bundle size and cold start',
    '',
    `Every function of the stack is bundled with the options \`RouteFunction\` deploys with (\`infra/cdk/bundling.ts\`,
shared by the construct and the bench: the bundles are byte for byte the \`cdk synth\` assets). Sizes in decimal units
(1 KB = 1,000 bytes); zod, AWS SDK (\`@aws-sdk/*\`, \`@smithy/*\`, \`@aws-crypto/*\`), other packages
(libphonenumber-js, standardwebhooks…) and own code are esbuild's attribution of the minified output. The stream
handler and the delivery function are the outbound-event functions (\`eventFunctions\` in \`lib/routes.ts\`). Before:
the bench of commit ${results.baseline.commit} (section 2); — for a function it did not bundle.`,
    '',
    table(
      ['Function', 'Bundle (before → after)', 'zod', 'AWS SDK', 'Other packages', 'Own code'],
      [...sorted, reference].map((result) => [
        name(result),
        beforeAfter(before(result)?.bytes, result.bytes, formatBytes),
        formatBytes(result.parts.zod),
        formatBytes(result.parts.sdk),
        formatBytes(result.parts.other),
        formatBytes(result.parts.app),
      ]),
      [1, 2, 3, 4, 5],
    ),
    '',
    `A cold start is a fresh Node process that imports the bundle and answers its first event, doing the route's real
work against DynamoDB Local (a new lead, a new candidate, a tag the prospect lacks; for the stream handler, a stream
record of a new prospect, whose workspace has no subscription: one Query, nothing to deliver; for the delivery
function, a queue message for a delivery that does not exist: one BatchGetItem, dropped, since the deployed bundle
refuses to POST to this machine): the time from the process's start (its time origin) to the answer. It splits into Node's own start, the module load (parse and module scope: clients, schemas)
and the first answer (the SDK's first requests included). The reference is bundled the same way and only creates the
DynamoDB document client (\`lib/storage/client.ts\`) and answers after one \`GetItem\`
(\`tools/bench/reference-function.ts\`): a ratio is what a function's own code adds. The budget is
${maxColdStartRatio} × for the heaviest bundle.`,
    '',
    `Medians of ${reference.coldStart.runs} runs, after one unmeasured round, the runs interleaved across functions.
Times before and after were taken under the machine's load of then and of now: the ratios compare, the times less so.`,
    '',
    `The CPU time the process used is shown too: other jobs on the machine inflate it less than elapsed time. On a busy
machine every time grows and the elapsed-time ratios shrink; the one-minute load average at the end of these runs was
${results.coldStartLoadAverage.toFixed(1)} on ${environment.cores} cores, the bench's own processes included.`,
    '',
    table(
      [
        'Function',
        'Cold start (before → after)',
        'Node start',
        'Load',
        'First answer',
        'Ratio',
        'CPU time',
        'CPU ratio',
      ],
      [...sorted, reference].map((result) => [
        name(result),
        beforeAfter(before(result)?.coldStartMs, result.coldStart.totalMs, ms),
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
