import { readFile, writeFile } from 'node:fs/promises';
import { format, resolveConfig } from 'prettier';
import { coldStartRuns } from './functions';
import * as figures from './figures';
import { checkBudgets, formatBytes, operationOf, price, priceList } from './figures';
import type { BenchResults } from './figures';
import { noteProspectCount, requestsPerKey, type LoadRun } from './load';
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
const thousands = (value: number) => Math.round(value).toLocaleString('en-US');
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

const callUnits = ({ operation, units: billed }: CallUnits) =>
  [operation, billed.read > 0 ? `${units(billed.read)} R` : '', billed.write > 0 ? `${units(billed.write)} W` : '']
    .filter(Boolean)
    .join(' ');

export function operationsSection({ operations, baseline }: BenchResults): string {
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
  return fill(2, {
    ...{ repetitions, warmUpRounds, commit: baseline.commit, baselineDate: baseline.date, baselineNote: baseline.note },
    operations: table(
      'Operation | Round trips (before → after) | Target | Expected calls | RRU billed (before → after) | WRU billed (before → after) | Local reports | Latency (before → after)',
      rows,
    ),
    calls: calls.join('\n'),
  });
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

function loadSection({ environment, load }: BenchResults): string {
  return fill(3, {
    ...{ autocannon: environment.autocannon, cores: environment.cores, noteProspects: noteProspectCount },
    ...{ requestsPerKey, load: loadTable(load.empty), bulkProspects: thousands(bulkProspectCount) },
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
    ...{ bulkProspects: thousands(bulk.prospects), bulkItems: thousands(bulk.items), short },
    ...{ bulkSeconds: bulk.seconds.toFixed(0), bulkRate: thousands(bulk.prospects / bulk.seconds) },
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

/** p50 and p99 of every run, without and with the bulk prospects: a grouped bar chart, a standalone SVG (no script, font or style). */
export function latencyChart(results: BenchResults): string {
  const colors = ['#9ecae1', '#3182bd', '#fdae6b', '#e6550d'];
  const names = ['empty workspace', `${short} prospects`].flatMap((of) => [`p50, ${of}`, `p99, ${of}`]);
  const series = names.map((name, index) => [name, colors[index] ?? '#888']);
  const groups = paired(results.load.empty, results.load.bulk).map(([run, grown]) => ({
    label: `${run.scenario === 'lead' ? 'Lead webhook' : 'POST note'} · ${run.connections} conn.`,
    values: [run.p50Ms, run.p99Ms, grown.p50Ms, grown.p99Ms],
  }));
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
