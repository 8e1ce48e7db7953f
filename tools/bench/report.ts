import { writeFile } from 'node:fs/promises';
import { format, resolveConfig } from 'prettier';
import { coldStartRuns } from './functions';
import * as figures from './figures';
import { checkBudgets, formatBytes, operationOf, price, priceList } from './figures';
import type { BenchResults, FunctionResult } from './figures';
import { noteProspectCount, requestsPerKey, type LoadRun } from './load';
import { repetitions, sameCalls, warmUpRounds, type CallUnits } from './operations';
import { bulkProspectCount } from './workspace';

/** A GitHub Markdown table from its header (`A | B`) and rows; `numeric`: all columns but the first aligned right. */
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
    `Do not edit by hand: run it again (\`-- --check\` exits with 1 when a budget breaks). It starts its own DynamoDB
Local, seeds two workspaces as \`lib/admin/seed-plan.ts\` plans them, measures, and stops all it started. Not part of
\`npm test\`; its pure helpers are unit-tested in \`test/unit/bench-*.test.ts\`.`,
    `Machine: ${env.cpu}, ${env.cores} cores, ${env.memoryGb} GB, ${env.os}. Node ${env.node}, ${env.java}, esbuild ${env.esbuild}.`,
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
    ...(['zod', 'sdk', 'other', 'app'] as const).map((part) => formatBytes(result.parts[part])),
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
    `Every function (the outbound-event ones are \`eventFunctions\` in \`lib/routes.ts\`) is bundled with the options
\`RouteFunction\` deploys with (\`infra/cdk/bundling.ts\`): byte for byte the \`cdk synth\` assets. Sizes in decimal units
(1 KB = 1,000 bytes), split by esbuild's attribution of the minified output into zod, AWS SDK (\`@aws-sdk/*\`,
\`@smithy/*\`, \`@aws-crypto/*\`), other packages (libphonenumber-js, standardwebhooks…) and own code. Before: the bench
of commit ${results.baseline.commit} (section 2); — for a function it did not bundle.`,
    table('Function | Bundle (before → after) | zod | AWS SDK | Other packages | Own code', sizes),
    `A cold start is a fresh Node process that imports the bundle and answers its first event with real work against
DynamoDB Local (a route: the call of section 2's first operation on it; the stream handler: a new prospect's record,
without subscription, one Query; the delivery function: a message for a delivery that does not exist, one
BatchGetItem, dropped, as the deployed bundle refuses to POST to this machine), timed from the process's start: Node's
own start, the module load (parse, module scope) and the first answer (the SDK's first requests included). The
reference (\`tools/bench/reference-function.ts\`), bundled alike, only creates the DynamoDB document client and answers
after one \`GetItem\`: a ratio is what a function's own code adds; the budget is ${figures.maxColdStartRatio} × for the heaviest bundle.`,
    `Medians of ${coldStartRuns} runs after one unmeasured round, interleaved across functions. Before and after were
taken under different machine loads: the ratios compare, the times less so. CPU time is inflated less by other jobs;
on a busy machine every time grows and elapsed ratios shrink: the one-minute load average after these runs was
${results.coldStartLoadAverage.toFixed(1)} on ${environment.cores} cores, the bench's own processes included.`,
    table(
      'Function | Cold start (before → after) | Node start | Load | First answer | Ratio | CPU time | CPU ratio',
      coldStarts,
    ),
    `On AWS the functions run \`nodejs22.x\` on arm64 with 512 MB, here Node ${environment.node}: absolute times differ, the
ratios are what this measure is for.`,
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
    `Every operation once per round, ${repetitions} measured rounds after ${warmUpRounds} unmeasured ones, through the
local API, whose one DynamoDB client serves authorizer and handlers, without \`Idempotency-Key\`; an SDK middleware
(\`tools/bench/operations.ts\`) records each call as it leaves (the round trips) and adds \`ReturnConsumedCapacity:
TOTAL\`. Capacity **billed** is computed from the items read and written by DynamoDB's documented rules
(\`tools/bench/capacity.ts\`: 1 RRU per 4 KB strongly consistent, half eventually consistent, a missing item at the
minimum; 1 WRU per KB, once more per index holding the item, twice per item of a transaction); **Local reports** is
DynamoDB Local's own count, not AWS's bill: a transaction's items count as one (three small puts: 2 reported, 6
billed), a \`BatchGetItem\`'s missing keys as free, a write refused by its condition as nothing. Latency: median of the
measured rounds, one request at a time, authorizer and handler included.`,
    `**Before**: the bench of commit ${baseline.commit} (${baseline.date}), the last before issue 15 ("Fewer DynamoDB round
trips"), kept in \`tools/bench/baseline.json\`: ${baseline.note}. — where it did not measure the operation. **Target**:
the most round trips issue 15 (writes, webhooks) or 16 (read routes) allows, authorizer included, a budget on the
median in both workspaces. **Expected calls**: those \`tools/bench/operations.ts\` lists, ✅ when made (in any order).`,
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
process, against the local API in a process of its own, all sharing the machine's ${results.environment.cores} cores with
DynamoDB Local. Each run sends a fixed number of requests: a new lead each time, or a note on one of
${noteProspectCount} prospects in turn, with API keys in turn (at least one per connection, at most ${requestsPerKey}
requests each, under the limit of 120 a minute). A few uncounted requests first load the functions' modules.
Latencies are those of 2xx answers, from autocannon's histogram (1 ms resolution).`,
    loadTable(results.load.empty),
    `![p50 and p99 latency by scenario and connections, with and without ${thousands(bulkProspectCount)} prospects](${latencyChartFile})`,
    `Throughput here is bounded by this shared machine, not by the design: on AWS each call gets its own Lambda
instance and DynamoDB on demand scales per partition.`,
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
    `Two workspaces of one table, seeded alike (\`lib/admin/seed-plan.ts\`): the first holds only the few hundred
prospects the measures write to, the second ${bulk.prospects.toLocaleString('en-US')} more with their e-mail and phone
markers; its ${thousands(bulk.items)} items took ${bulk.seconds.toFixed(0)} s to write by parallel \`BatchWriteItem\`s
(${thousands(bulk.prospects / bulk.seconds)} bulk prospects a second on DynamoDB Local). Every figure of sections 1 to 3
was measured after that write, the workspaces taking turns so that both meet the code and DynamoDB Local equally warm;
in the second, the known lead is one of the ${short} prospects. ${
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
    const before = figures.costBefore(baseline, operation);
    return { label: operation.label, before, ...figures.operationCost(measure, operation.routeId, coldStartOf) };
  });
  const itemNames = costs[0]?.lines.map((line) => line.item) ?? [];
  const rows = costs.map((cost) => [
    cost.label,
    ...cost.lines.map((line) => dollars(line.dollars)),
    cost.before === undefined ? '—' : dollars(cost.before),
    `**${dollars(cost.total)}**`,
  ]);
  const priceRows = priceList.map((item) => [item.label, `${price(item.dollars)} per ${item.per}`]);
  const arithmetic = costs.flatMap((cost) => [
    `- **${cost.label}** (${dollars(cost.total)})`,
    ...cost.lines.map((line) => `  - ${line.item}: ${line.arithmetic} = ${dollars(line.dollars)}`),
  ]);
  return [
    '## 5. Cost per million calls on AWS',
    `Prices of [docs/deploy.md](deploy.md#cost-per-million-calls): us-east-1, on demand, free tiers left out, as
published in 2025 and not read again since (no network here: check them before quoting).`,
    table('Price | Value', priceRows, false),
    `Per call: one API Gateway request; two Lambda invocations (authorizer, handler, ${figures.memoryGb} GB each) billed
for section 2's latency (both together, local gateway included: an upper bound); ${figures.coldShare * 100} % of
invocations starting cold, billed for section 1's cold start (first answer included: an upper bound); section 2's
billed units. CloudWatch Logs (about $0.53 per million calls) and X-Ray ($1.30 to $10 per million) come on top
(docs/deploy.md). **Total before**: the same arithmetic on what the bench of commit ${baseline.commit}
(${baseline.date}, before issue 15) measured; — where it did not measure the operation.`,
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
  const groups = results.load.empty.map((run, index) => {
    const grown = results.load.bulk[index];
    if (grown?.scenario !== run.scenario || grown.connections !== run.connections)
      throw new Error('phases ran different loads');
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
  const invalid = groups.find(
    ({ values }) => values.length !== series.length || values.some((v) => !(v >= 0 && v < Infinity)),
  );
  if (invalid) throw new Error(`bar chart: group ${invalid.label} needs one finite, non-negative value per series`);
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
  const options = { ...(await resolveConfig(reportFile)), filepath: reportFile };
  await writeFile(reportFile, await format(performanceReport(results), options));
  await writeFile(new URL(latencyChartFile, docs), latencyChart(results));
}
