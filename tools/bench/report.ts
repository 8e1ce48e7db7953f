import { writeFile } from 'node:fs/promises';
import { format, resolveConfig } from 'prettier';
import { coldStartRuns } from './functions';
import * as figures from './figures';
import {
  checkBudgets,
  formatBytes,
  operationOf,
  price,
  prices,
  type BenchResults,
  type FunctionResult,
} from './figures';
import { noteProspectCount, requestsPerKey, type LoadRun } from './load';
import { repetitions, sameCalls, warmUpRounds, type CallUnits } from './operations';
import { bulkProspectCount } from './workspace';

/**
 * A GitHub Markdown table: its header row as Markdown writes it (`A | B`), then its rows; with
 * `numeric`, every column but the first aligned right. Cells are escaped for the pipe.
 */
export function table(header: string, rows: readonly (readonly (string | number)[])[], numeric = true): string {
  const headers = header.split(' | ');
  const rule = headers.map((_, index) => (numeric && index > 0 ? '---:' : '---'));
  const line = (row: readonly (string | number)[]) =>
    `| ${row.map((cell) => String(cell).replace(/\|/g, '\\|')).join(' | ')} |`;
  return [headers, rule, ...rows].map(line).join('\n');
}

export const ms = (value: number) => `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`;
/** Capacity units: halves are real (eventually consistent reads), so one decimal when needed. */
export const units = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1));
const dollars = (value: number) => `$${value.toFixed(2)}`;
const thousands = (value: number) => Math.round(value).toLocaleString('en-US');
/** "5 → 3"; "— → 5" when there is no before (an operation the baseline did not measure). */
export const beforeAfter = (before: number | undefined, after: number, shown: (value: number) => string = String) =>
  `${before === undefined ? '—' : shown(before)} → ${shown(after)}`;
const short = `${bulkProspectCount / 1000}k`;
export const latencyChartFile = 'performance-latency.svg';

/** docs/performance.md: written whole by every `npm run bench`. */
export function performanceReport(results: BenchResults): string {
  const { environment: env } = results;
  const budgets = checkBudgets(results).map((check) => [check.budget, check.measured, check.ok ? '✅' : '❌']);
  return [
    '# Performance',
    `Written by \`npm run bench\` (\`tools/bench/run.ts\`) on ${results.date}, in ${Math.round(results.seconds)} s.`,
    `Do not edit by hand: run it again. \`npm run bench -- --check\` also exits with 1 when a budget breaks. The bench
starts its own DynamoDB Local (in memory), seeds two workspaces as \`lib/admin/seed-plan.ts\` plans them, measures, and stops
everything it started. It is a tool, not part of \`npm test\`; its pure helpers are unit-tested in
\`test/unit/bench-*.test.ts\`.`,
    `Machine: ${env.cpu}, ${env.cores} cores, ${env.memoryGb} GB, ${env.os}.`,
    `Node ${env.node}, ${env.java}, esbuild ${env.esbuild}.`,
    '## Budgets',
    table('Budget | Measured | ', budgets, false),
    functionsSection(results),
    operationsSection(results),
    loadSection(results),
    growthSection(results),
    costsSection(results),
  ].join('\n\n');
}

export function functionsSection(results: BenchResults): string {
  const { reference, environment, baseline } = results;
  const sorted = [...[...results.functions].sort((a, b) => b.bytes - a.bytes), reference];
  const name = (result: FunctionResult) => (result === reference ? '_reference_' : `\`${result.name}\``);
  const ratio = (value: number, of: number) => `${(value / of).toFixed(2)} ×`;
  // A function the baseline did not bundle (added since, like the outbound-event functions) has no before.
  const before = (result: FunctionResult) =>
    result === reference
      ? { bytes: undefined, coldStartMs: baseline.referenceColdStartMs }
      : baseline.functions[result.name];
  const sizes = sorted.map((result) => [
    name(result),
    beforeAfter(before(result)?.bytes, result.bytes, formatBytes),
    ...[result.parts.zod, result.parts.sdk, result.parts.other, result.parts.app].map(formatBytes),
  ]);
  const coldStarts = sorted.map((result) => [
    name(result),
    beforeAfter(before(result)?.coldStartMs, result.coldStart.totalMs, ms),
    ...[result.coldStart.nodeStartMs, result.coldStart.loadMs, result.coldStart.firstAnswerMs].map(ms),
    ratio(result.coldStart.totalMs, reference.coldStart.totalMs),
    ms(result.coldStart.cpuMs),
    ratio(result.coldStart.cpuMs, reference.coldStart.cpuMs),
  ]);
  return [
    '## 1. Bundle size and cold start',
    `Every function of the stack is bundled with the options \`RouteFunction\` deploys with (\`infra/cdk/bundling.ts\`,
shared by the construct and the bench: the bundles are byte for byte the \`cdk synth\` assets). Sizes in decimal units
(1 KB = 1,000 bytes); zod, AWS SDK (\`@aws-sdk/*\`, \`@smithy/*\`, \`@aws-crypto/*\`), other packages
(libphonenumber-js, standardwebhooks…) and own code are esbuild's attribution of the minified output. The stream
handler and the delivery function are the outbound-event functions (\`eventFunctions\` in \`lib/routes.ts\`). Before:
the bench of commit ${results.baseline.commit} (section 2); — for a function it did not bundle.`,
    table('Function | Bundle (before → after) | zod | AWS SDK | Other packages | Own code', sizes),
    `A cold start is a fresh Node process that imports the bundle and answers its first event, doing the route's real
work against DynamoDB Local (the call of the first operation of section 2 that measures the route: a new lead, a new candidate, a stage
change, a tag the prospect lacks…; for the stream handler, a stream
record of a new prospect, whose workspace has no subscription: one Query, nothing to deliver; for the delivery
function, a queue message for a delivery that does not exist: one BatchGetItem, dropped, since the deployed bundle
refuses to POST to this machine): the time from the process's start (its time origin) to the answer. It splits into Node's own start, the module load (parse and module scope: clients, schemas)
and the first answer (the SDK's first requests included). The reference is bundled the same way and only creates the
DynamoDB document client (\`lib/storage/client.ts\`) and answers after one \`GetItem\`
(\`tools/bench/reference-function.ts\`): a ratio is what a function's own code adds. The budget is
${figures.maxColdStartRatio} × for the heaviest bundle.`,
    `Medians of ${coldStartRuns} runs, after one unmeasured round, the runs interleaved across functions.
Times before and after were taken under the machine's load of then and of now: the ratios compare, the times less so.`,
    `The CPU time the process used is shown too: other jobs on the machine inflate it less than elapsed time. On a busy
machine every time grows and the elapsed-time ratios shrink; the one-minute load average at the end of these runs was
${results.coldStartLoadAverage.toFixed(1)} on ${environment.cores} cores, the bench's own processes included.`,
    table(
      'Function | Cold start (before → after) | Node start | Load | First answer | Ratio | CPU time | CPU ratio',
      coldStarts,
    ),
    `On AWS the functions run \`nodejs22.x\` on arm64 with 512 MB; here they ran on Node ${environment.node} on this
machine. Absolute times differ on Lambda; the ratios are what this measure is for.`,
  ].join('\n\n');
}

const callUnits = ({ operation, units: billed }: CallUnits) =>
  [operation, billed.read > 0 ? `${units(billed.read)} R` : '', billed.write > 0 ? `${units(billed.write)} W` : '']
    .filter(Boolean)
    .join(' ');

export function operationsSection(results: BenchResults): string {
  const measures = results.operations.empty;
  const { baseline } = results;
  const rows = measures.map((measure) => {
    const [operation, before] = [operationOf(measure.id), baseline.operations[measure.id]];
    return [
      operation.label,
      `${beforeAfter(before?.calls.length, measure.roundTrips, units)}${measure.stable ? '' : ' (varies)'}`,
      `${operation.target}${measure.roundTrips <= operation.target ? ' ✅' : ' ❌'}`,
      `${operation.calls.length}${sameCalls(measure.calls, operation.calls) ? ' ✅' : ' ❌'}`,
      beforeAfter(before?.billed.read, measure.billed.read, units),
      beforeAfter(before?.billed.write, measure.billed.write, units),
      units(measure.reported),
      beforeAfter(before?.latencyMs, measure.latencyMs, ms),
    ];
  });
  const header =
    'Operation | Round trips (before → after) | Target | Expected calls | RRU billed (before → after) | WRU billed (before → after) | Local reports | Latency (before → after)';
  return [
    '## 2. DynamoDB round trips and capacity per operation',
    `Every operation once per round, ${repetitions} measured rounds after ${warmUpRounds} unmeasured ones,
through the local API (\`startLocalApi\`), whose one DynamoDB client serves the authorizer and the handlers, without
\`Idempotency-Key\`. The SDK middleware of \`tools/bench/operations.ts\` records every call as it leaves (the round trips
counted) and adds \`ReturnConsumedCapacity: TOTAL\` to it. Capacity is shown
twice: **billed**, computed from the items written and read with DynamoDB's documented rules
(\`tools/bench/capacity.ts\`: 1 RRU per 4 KB strongly consistent, half eventually consistent, a missing item at the
minimum; 1 WRU per KB, once more per index holding the item; twice for each item of a transaction), and as
**DynamoDB Local reports** it, which is not what AWS bills: it counts a transaction's items as one (three small
puts in one transaction: 2 units reported, 6 billed), a \`BatchGetItem\`'s missing keys as free, and reports nothing
for a write refused by its condition. Latency: median of the measured rounds, one request at a time, authorizer and
handler included.`,
    `**Before → after**: before is the bench of commit ${baseline.commit} (${baseline.date}), the last before issue 15
("Fewer DynamoDB round trips"), kept in \`tools/bench/baseline.json\`: ${baseline.note}. — where that run did not
measure the operation. **Target**: the most round trips issue 15 (writes, webhooks) or issue 16 (read routes) allows, authorizer included, a budget on the median
of the measured rounds in both workspaces. **Expected calls**: the calls \`tools/bench/operations.ts\` lists for the
operation, ✅ when those were made (in any order: parallel calls leave in no fixed order).`,
    table(header, rows),
    `Calls in the order they left (R: read units, W: write units billed), and why the data model needs them; then the
calls of commit ${baseline.commit}:`,
    measures
      .map((measure) => {
        const [{ label, reason }, before] = [operationOf(measure.id), baseline.operations[measure.id]];
        const calls = measure.breakdown.map(callUnits).join(' · ');
        return `- **${label}**: ${calls}. ${reason.charAt(0).toUpperCase()}${reason.slice(1)}. Before: ${before?.calls.join(' · ') ?? 'not measured'}.`;
      })
      .join('\n'),
  ].join('\n\n');
}

/** One row per load run, as sections 3 and 4 show them. */
const loadTable = (runs: readonly LoadRun[]) =>
  table(
    'Scenario | Connections | Requests | Keys | p50 | p99 | Requests/s | Errors | Non-2xx',
    runs.map((run) => [
      run.scenario === 'lead' ? 'Lead webhook (new leads)' : 'POST /prospects/{id}/notes',
      ...[run.connections, run.requests, run.keys, ms(run.p50Ms), ms(run.p99Ms)],
      ...[Math.round(run.requestsPerSecond), run.errors, run.non2xx],
    ]),
  );

function loadSection(results: BenchResults): string {
  return [
    '## 3. Throughput and latency under load',
    `Load from [autocannon](https://github.com/mcollina/autocannon) ${results.environment.autocannon}, in the bench's
process, against the local API (\`startLocalServer\`) in a process of its own, with the functions' code and DynamoDB
Local behind it: all of them share the machine's ${results.environment.cores} cores. Each run sends a fixed number of
requests: a new lead each time, or a note on one of ${noteProspectCount} prospects taken round robin, with an API key
taken round robin too (at least one key per connection, at most ${requestsPerKey} requests per key, under the limit of
120 a minute). A few requests before each scenario load the functions' modules and are not counted. Latencies are
those of 2xx answers, from autocannon's histogram (1 ms resolution).`,
    loadTable(results.load.empty),
    `![p50 and p99 latency by scenario and connections, with and without ${thousands(bulkProspectCount)} prospects](${latencyChartFile})`,
    `Throughput here is bounded by this machine (the API, the load generator and DynamoDB Local's JVM share it), not by
the design: on AWS each call gets its own Lambda instance and DynamoDB on demand scales per partition.`,
  ].join('\n\n');
}

function growthSection(results: BenchResults): string {
  const { bulk, operations } = results;
  const scanned = [...operations.empty, ...operations.bulk].some((measure) => measure.calls.includes('Scan'));
  const figuresOf = (measure: (typeof operations.empty)[number]) => [
    ...[measure.roundTrips, measure.billed.read, measure.billed.write].map(units),
    ms(measure.latencyMs),
  ];
  const rows = operations.empty.map((measure, index) => {
    const grown = operations.bulk[index];
    if (grown?.id !== measure.id) throw new Error('phases measured different operations');
    return [operationOf(measure.id).label, ...figuresOf(measure), ...figuresOf(grown)];
  });
  return [
    `## 4. How cost grows: ${thousands(bulkProspectCount)} prospects`,
    `Two workspaces of one table, seeded alike: the first holds only the few hundred prospects the measures
write to, the second ${bulk.prospects.toLocaleString('en-US')} more, each prospect with its e-mail and phone markers
as \`lib/admin/seed-plan.ts\` plans them (the shapes of \`lib/storage/table-items.ts\`), written straight into the table
by parallel \`BatchWriteItem\`s.`,
    `Writing the second workspace's ${thousands(bulk.items)} items (its configuration and the measures' prospects
included) took ${bulk.seconds.toFixed(0)} s (${thousands(bulk.prospects / bulk.seconds)} bulk prospects a second on DynamoDB Local).`,
    `Every figure of sections 1 to 3 was measured after that write, the two workspaces taking turns (operation after
operation, load run after load run), so that both meet the code and DynamoDB Local equally warm. In the second, the known lead is one of the ${short} prospects. ${
      scanned
        ? '**A Scan was seen.**'
        : 'No operation used a Scan: every read goes by key, so neither round trips nor units depend on the number of prospects; latencies differ by the noise of a shared machine.'
    }`,
    table(
      `Operation | Round trips | RRU | WRU | Latency | Round trips (${short}) | RRU (${short}) | WRU (${short}) | Latency (${short})`,
      rows,
    ),
    `Under load, with the ${short} prospects:`,
    loadTable(results.load.bulk),
  ].join('\n\n');
}

export function costsSection(results: BenchResults): string {
  const { baseline } = results;
  const coldStartOf = (name: string) => results.functions.find((result) => result.name === name)?.coldStart.totalMs;
  const costs = results.operations.empty.map((measure) => {
    const operation = operationOf(measure.id);
    const { label, routeId } = operation;
    return {
      label,
      before: figures.costBefore(baseline, operation),
      ...figures.operationCost(measure, routeId, coldStartOf),
    };
  });
  const itemNames = costs[0]?.lines.map((line) => line.item) ?? [];
  const rows = costs.map((cost) => [
    cost.label,
    ...cost.lines.map((line) => dollars(line.dollars)),
    cost.before === undefined ? '—' : dollars(cost.before),
    `**${dollars(cost.total)}**`,
  ]);
  const priceRows = [
    ['API Gateway REST API, first 333 million requests', `${price(prices.apiGatewayPerMillion)} per million`],
    ['Lambda requests', `${price(prices.lambdaRequestsPerMillion)} per million`],
    ['Lambda duration, arm64', `${price(prices.lambdaGbSecond)} per GB-second`],
    ['DynamoDB on demand, write request unit (WRU)', `${price(prices.writeUnitPerMillion)} per million`],
    ['DynamoDB on demand, read request unit (RRU)', `${price(prices.readUnitPerMillion)} per million`],
  ];
  const arithmetic = costs.flatMap((cost) => [
    `- **${cost.label}** (${dollars(cost.total)})`,
    ...cost.lines.map((line) => `  - ${line.item}: ${line.arithmetic} = ${dollars(line.dollars)}`),
  ]);
  return [
    '## 5. Cost per million calls on AWS',
    `Prices of [docs/deploy.md](deploy.md#cost-per-million-calls): us-east-1, on demand, free tiers left out, as
published in 2025 and not read again since (no network here: check them before quoting).`,
    table('Price | Value', priceRows, false),
    `Per call: one API Gateway request; two Lambda invocations (authorizer, then handler, 512 MB = ${figures.memoryGb} GB each)
billed for the latency measured in section 2 (both invocations together, local gateway included: an upper bound);
${figures.coldShare * 100} % of invocations starting cold, billed for the cold start measured in section 1 (first answer
included: an upper bound); the units billed of section 2. CloudWatch Logs (about $0.53 per million calls) and X-Ray
($1.30 to $10 per million, depending on traffic) come on top, as docs/deploy.md explains.`,
    `**Total before**: the same arithmetic on what the bench of commit ${results.baseline.commit} (${results.baseline.date},
before issue 15) measured: its units, latency and cold starts (\`tools/bench/baseline.json\`); — where it did not
measure the operation. The other columns and **Total after** are this run's.`,
    table(['Operation', ...itemNames, 'Total before', 'Total after'].join(' | '), rows),
    'The arithmetic, per million calls:',
    arithmetic.join('\n'),
  ].join('\n\n');
}

/** p50 and p99 of every run, without and with the bulk prospects: a grouped bar chart, a standalone SVG (no script, font or style). */
export function latencyChart(results: BenchResults): string {
  const series = [
    ['p50, empty workspace', '#9ecae1'],
    ['p99, empty workspace', '#3182bd'],
    [`p50, ${short} prospects`, '#fdae6b'],
    [`p99, ${short} prospects`, '#e6550d'],
  ];
  const groups = results.load.empty.map((run) => {
    const grown = results.load.bulk.find(
      (other) => other.scenario === run.scenario && other.connections === run.connections,
    );
    if (grown === undefined) throw new Error('phases ran different loads');
    const label = `${run.scenario === 'lead' ? 'Lead webhook' : 'POST note'} · ${run.connections} conn.`;
    return { label, values: [run.p50Ms, run.p99Ms, grown.p50Ms, grown.p99Ms] };
  });
  return barChart('Latency under load through the local API (ms)', 'milliseconds', series, groups);
}

export const escapeXml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** A round step (1, 2, 2.5 or 5 × 10^n) that divides the axis up to `max` in at most five parts. */
export function tickStep(max: number): number {
  if (!(max > 0)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(max / 5));
  return ([1, 2, 2.5, 5, 10].find((candidate) => candidate * magnitude >= max / 5) ?? 10) * magnitude;
}

export function barChart(
  title: string,
  unit: string,
  series: readonly (readonly string[])[],
  groups: readonly { label: string; values: readonly number[] }[],
): string {
  const [width, height, left, right, top, bottom, barGap, groupGap] = [960, 460, 64, 24, 72, 72, 3, 28];
  for (const group of groups) {
    if (group.values.length !== series.length || group.values.some((value) => !Number.isFinite(value) || value < 0)) {
      throw new Error(`bar chart: group ${group.label} needs one finite, non-negative value per series`);
    }
  }
  const [plotWidth, plotHeight] = [width - left - right, height - top - bottom];
  const highest = Math.max(0, ...groups.flatMap((group) => group.values));
  const step = tickStep(highest);
  const axisTop = Math.max(step, Math.ceil(highest / step) * step);
  const groupWidth = plotWidth / Math.max(groups.length, 1);
  const barWidth = (groupWidth - groupGap) / Math.max(series.length, 1) - barGap;
  const y = (value: number) => top + plotHeight - (value / axisTop) * plotHeight;
  const n = (value: number) => (Math.round(value * 10) / 10).toString();
  const text = (x: number, at: number, content: string, attributes = '') =>
    `<text x="${n(x)}" y="${n(at)}"${attributes}>${escapeXml(content)}</text>`;
  const ticks = Array.from({ length: Math.round(axisTop / step) + 1 }, (_, index) => {
    const at = y(index * step);
    return `<line x1="${left}" x2="${width - right}" y1="${n(at)}" y2="${n(at)}" stroke="#ddd"/>${text(left - 8, at + 4, n(index * step), ' text-anchor="end"')}`;
  });
  const bars = groups.flatMap((group, groupIndex) => {
    const groupLeft = left + groupIndex * groupWidth + groupGap / 2;
    return [
      text(groupLeft + (groupWidth - groupGap) / 2, height - bottom + 20, group.label, ' text-anchor="middle"'),
      ...group.values.map((value, seriesIndex) => {
        const x = groupLeft + seriesIndex * (barWidth + barGap);
        const fill = escapeXml(series[seriesIndex]?.[1] ?? '#888');
        return (
          `<rect x="${n(x)}" y="${n(y(value))}" width="${n(barWidth)}" height="${n(y(0) - y(value))}" fill="${fill}"/>` +
          text(x + barWidth / 2, y(value) - 4, n(value), ' text-anchor="middle" font-size="10"')
        );
      }),
    ];
  });
  const legend = series.map(
    ([name = '', color = ''], index) =>
      `<rect x="${left + index * 190}" y="36" width="12" height="12" fill="${escapeXml(color)}"/>${text(left + index * 190 + 18, 46, name)}`,
  );
  const middle = top + plotHeight / 2;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    text(left, 22, title, ' font-size="15" font-weight="bold"'),
    ...legend,
    ...ticks,
    text(16, middle, unit, ` transform="rotate(-90 16 ${middle})" text-anchor="middle"`),
    ...bars,
    `<line x1="${left}" x2="${width - right}" y1="${y(0)}" y2="${y(0)}" stroke="#333"/>`,
    '</svg>\n',
  ].join('\n');
}

/** docs/performance.md, formatted as the repository's Prettier check wants it, and its chart beside it. */
export async function writeReport(results: BenchResults): Promise<void> {
  const docs = new URL('../../docs/', import.meta.url);
  const reportFile = new URL('performance.md', docs).pathname;
  const markdown = await format(performanceReport(results), {
    ...(await resolveConfig(reportFile)),
    filepath: reportFile,
  });
  await writeFile(reportFile, markdown);
  await writeFile(new URL(latencyChartFile, docs), latencyChart(results));
}
