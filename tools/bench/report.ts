import { readFile, writeFile } from 'node:fs/promises';
import { format, resolveConfig } from 'prettier';
import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { coldStartRuns } from './functions';
import * as figures from './figures';
import { checkBudgets, count, formatBytes, operationOf, price, priceList, type BenchResults } from './figures';
import { noteProspectCount, requestsPerKey, type LoadRun } from './load';
import { writeDestinations } from './capacity';
import { repetitions, sameCalls, warmUpRounds, type CallUnits, type OperationMeasure } from './operations';
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
/** "5 → 3"; "— → 5" when there is no before (an operation the baseline did not measure). */
export const beforeAfter = (before: number | undefined, after: number, shown: (value: number) => string = String) =>
  `${before === undefined ? '—' : shown(before)} → ${shown(after)}`;
const short = `${bulkProspectCount / 1000}k`;
export const latencyChartFile = 'performance-latency.svg';

/** The report's text (`report.md`): the page down to section 1, then one part per section; `{{name}}` marks a figure. */
const template = (await readFile(new URL('./report.md', import.meta.url), 'utf8')).split(/^(?=## \d)/m);

/** Part `part` of the template with every `{{name}}` replaced by its value; a name without one throws. */
function fill(part: number, values: Record<string, string | number>): string {
  return (template[part] ?? '').replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`tools/bench/report.md: no value for {{${name}}}`);
    return String(value);
  });
}

/** docs/performance.md: written whole by every `npm run bench`. */
export function performanceReport(results: BenchResults): string {
  const checks = checkBudgets(results).map((check) => [check.budget, check.measured, check.ok ? '✅' : '❌']);
  const budgets = table('Budget | Measured | ', checks, false);
  const head = fill(0, { ...results.environment, date: results.date, seconds: Math.round(results.seconds), budgets });
  const sections = [functionsSection, operationsSection, loadSection, growthSection, costsSection];
  return [head, ...sections.map((section) => section(results))].join('');
}

export function functionsSection(results: BenchResults): string {
  const { reference, environment, baseline } = results;
  const sorted = [...[...results.functions].sort((a, b) => b.bytes - a.bytes), reference];
  const name = (result: typeof reference) => (result === reference ? '_reference_' : `\`${result.name}\``);
  const ratio = (value: number, of: number) => `${(value / of).toFixed(2)} ×`;
  // A function the baseline did not bundle (added since, like the outbound-event functions) has no before.
  const before = (result: typeof reference) => baseline.functions[result.name];
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
  return fill(1, {
    ...{ commit: baseline.commit, maxRatio: figures.maxColdStartRatio, runs: coldStartRuns },
    ...{ loadAverage: results.coldStartLoadAverage.toFixed(1), cores: environment.cores, node: environment.node },
    sizes: table('Function | Bundle (before → after) | zod | AWS SDK | Other packages | Own code', sizes),
    coldStarts: table(
      'Function | Cold start (before → after) | Node start | Load | First answer | Ratio | CPU time | CPU ratio',
      coldStarts,
    ),
  });
}

const callUnits = ({ operation, units: { read, write } }: CallUnits) =>
  [operation, read > 0 ? `${units(read)} R` : '', write > 0 ? `${units(write)} W` : ''].filter(Boolean).join(' ');

/** Section 2's write units by destination, and section 5's cost, of each operation whose own calls write. */
function writesTable({ operations, baseline, functions }: BenchResults): string {
  const coldStartOf = (name: string) => functions.find((result) => result.name === name)?.coldStart.totalMs;
  const rows = operations.empty.flatMap((measure) => {
    const operation = operationOf(measure.id);
    if (!operation.writes) return [];
    const after = figures.operationCost(measure, operation.routeId, coldStartOf).total;
    return [
      [
        operation.label,
        beforeAfter(baseline.operations[measure.id]?.billed.write, measure.billed.write, units),
        ...writeDestinations.map((destination) => units(measure.writes[destination])),
        beforeAfter(figures.costBefore(baseline, operation), after, dollars),
      ],
    ];
  });
  const destinations = writeDestinations.map((destination) => (destination === 'table' ? 'Table' : destination));
  const header = ['Operation', 'WRU (before → after)', ...destinations, 'Cost per million (before → after)'];
  return table(header.join(' | '), rows);
}

export function operationsSection(results: BenchResults): string {
  const { operations, baseline } = results;
  const measures = operations.empty.map(
    (measure) => [measure, operationOf(measure.id), baseline.operations[measure.id]] as const,
  );
  const rows = measures.map(([measure, operation, before]) => [
    operation.label,
    `${beforeAfter(before?.calls.length, measure.roundTrips, units)}${measure.stable ? '' : ' (varies)'}`,
    `${operation.target}${measure.roundTrips <= operation.target ? ' ✅' : ' ❌'}`,
    `${operation.calls.length}${sameCalls(measure.calls, operation.calls) ? ' ✅' : ' ❌'}`,
    beforeAfter(before?.billed.read, measure.billed.read, units),
    beforeAfter(before?.billed.write, measure.billed.write, units),
    units(measure.reported),
    beforeAfter(before?.latencyMs, measure.latencyMs, ms),
  ]);
  const calls = measures.map(([measure, { label, reason }, before]) => {
    const why = reason.charAt(0).toUpperCase() + reason.slice(1);
    const made = measure.breakdown.map(callUnits).join(' · ');
    return `- **${label}**: ${made}. ${why}. Before: ${before?.calls.join(' · ') ?? 'not measured'}.`;
  });
  const writeUnits = (id: string) => {
    const found = operations.empty.find((measure) => measure.id === id);
    return found === undefined ? '—' : units(found.billed.write);
  };
  return fill(2, {
    ...{ repetitions, warmUpRounds, commit: baseline.commit, baselineDate: baseline.date, baselineNote: baseline.note },
    withValuesWrite: writeUnits(figures.fieldValuesBudget.withValues),
    withoutWrite: writeUnits(figures.fieldValuesBudget.without),
    operations: table(
      'Operation | Round trips (before → after) | Target | Expected calls | RRU billed (before → after) | WRU billed (before → after) | Local reports | Latency (before → after)',
      rows,
    ),
    calls: calls.join('\n'),
    writesByDestination: writesTable(results),
  });
}

const loadTable = (runs: readonly LoadRun[]) =>
  table(
    'Scenario | Connections | Requests | Keys | p50 | p99 | Requests/s | Errors | Non-2xx',
    runs.map((run) => [
      run.scenario === 'lead' ? 'Lead webhook (new leads)' : 'POST /prospects/{id}/notes',
      ...[run.connections, run.requests, run.keys, ms(run.p50Ms), ms(run.p99Ms)],
      ...[Math.round(run.requestsPerSecond), run.errors, run.non2xx],
    ]),
  );

function loadSection({ environment, load }: BenchResults): string {
  return fill(3, {
    ...{ autocannon: environment.autocannon, cores: environment.cores, noteProspects: noteProspectCount },
    ...{ requestsPerKey, load: loadTable(load.empty), bulkProspects: count(bulkProspectCount) },
    chart: latencyChartFile,
  });
}

/** The runs of both workspaces side by side; they must be the same runs, in the same order. */
function paired<T extends { id: string } | LoadRun>(empty: readonly T[], bulk: readonly T[]): [T, T][] {
  const key = (run: T) => ('id' in run ? run.id : `${run.scenario} × ${run.connections}`);
  return empty.map((run, index) => {
    const grown = bulk[index];
    if (grown === undefined || key(grown) !== key(run)) throw new Error('the workspaces were measured differently');
    return [run, grown];
  });
}

function growthSection({ bulk, operations, load }: BenchResults): string {
  const scanned = [...operations.empty, ...operations.bulk].some((measure) => measure.calls.includes('Scan'));
  const figureNames = ['Round trips', 'RRU', 'WRU', 'Latency'];
  const figuresOf = (measure: OperationMeasure) => [
    ...[measure.roundTrips, measure.billed.read, measure.billed.write].map(units),
    ms(measure.latencyMs),
  ];
  const rows = paired(operations.empty, operations.bulk).map(([measure, grown]) => [
    operationOf(measure.id).label,
    ...figuresOf(measure),
    ...figuresOf(grown),
  ]);
  return fill(4, {
    ...{ bulkProspects: count(bulk.prospects), bulkItems: count(bulk.items), short },
    ...{ bulkSeconds: bulk.seconds.toFixed(0), bulkRate: count(Math.round(bulk.prospects / bulk.seconds)) },
    scan: scanned
      ? '**A Scan was seen.**'
      : 'No operation used a Scan: every read goes by key, so neither round trips nor units depend on the number of prospects; latencies differ by the noise of a shared machine.',
    growth: table(['Operation', ...figureNames, ...figureNames.map((name) => `${name} (${short})`)].join(' | '), rows),
    bulkLoad: loadTable(load.bulk),
  });
}

export function costsSection({ baseline, functions, operations }: BenchResults): string {
  const coldStartOf = (name: string) => functions.find((result) => result.name === name)?.coldStart.totalMs;
  const costs = operations.empty.map((measure) => {
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
  return fill(5, {
    ...{ lambdaGb: figures.memoryGb, coldPercent: figures.coldShare * 100 },
    ...{ commit: baseline.commit, baselineDate: baseline.date, prices: table('Price | Value', priceRows, false) },
    costs: table(['Operation', ...itemNames, 'Total before', 'Total after'].join(' | '), rows),
    arithmetic: arithmetic.join('\n'),
  });
}

/** p50 and p99 of every run, without and with the bulk prospects, grouped by run: a standalone SVG (no script). */
export async function latencyChart({ load }: Pick<BenchResults, 'load'>): Promise<string> {
  const series = ['empty workspace', `${short} prospects`].flatMap((of) => [`p50, ${of}`, `p99, ${of}`]);
  const values = paired(load.empty, load.bulk).flatMap(([{ scenario, connections, p50Ms, p99Ms }, grown]) => {
    const run = `${scenario === 'lead' ? 'Lead webhook' : 'POST note'} · ${connections} conn.`;
    return [p50Ms, p99Ms, grown.p50Ms, grown.p99Ms].map((ms, index) => ({ run, series: series[index], ms }));
  });
  const colors = ['#9ecae1', '#3182bd', '#fdae6b', '#e6550d'];
  const spec: TopLevelSpec = {
    ...{ title: 'Latency under load through the local API (ms)', width: 860, height: 320, data: { values } },
    encoding: {
      x: { field: 'run', type: 'nominal', sort: null, title: null, axis: { labelAngle: 0 } },
      xOffset: { field: 'series', sort: series },
      y: { field: 'ms', type: 'quantitative', title: 'milliseconds' },
    },
    layer: [
      { mark: 'bar', encoding: { color: { field: 'series', title: null, scale: { domain: series, range: colors } } } },
      { mark: { type: 'text', dy: -6, fontSize: 9 }, encoding: { text: { field: 'ms', format: '.1~f' } } },
    ],
    config: { background: '#fff', axis: { labelLimit: 0 }, legend: { orient: 'top', labelLimit: 0 } },
  };
  return `${await new View(parse(compile(spec).spec), { renderer: 'none' }).toSVG()}\n`;
}

/** docs/performance.md, formatted as the repository's Prettier check wants it, and its chart beside it. */
export async function writeReport(results: BenchResults): Promise<void> {
  const docs = new URL('../../docs/', import.meta.url);
  const reportFile = new URL('performance.md', docs).pathname;
  const options = { ...(await resolveConfig(reportFile)), filepath: reportFile };
  await writeFile(reportFile, await format(performanceReport(results), options));
  await writeFile(new URL(latencyChartFile, docs), await latencyChart(results));
}
