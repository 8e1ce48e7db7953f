import { barChart } from './bar-chart';
import { noteProspectCount, requestsPerKey } from './load-plan';
import type { LoadRun, Scenario } from './load';
import { ms, table, units } from './markdown';
import { operationOf } from './report-operations';
import type { BenchResults } from './results';
import { bulkProspectCount } from './workspace';

export const latencyChartFile = 'performance-latency.svg';

const scenarioLabels: Record<Scenario, string> = {
  lead: 'Lead webhook (new leads)',
  note: 'POST /prospects/{id}/notes',
};

/** One row per load run, as sections 3 and 4 show them. */
const loadTable = (runs: readonly LoadRun[]) =>
  table(
    ['Scenario', 'Connections', 'Requests', 'Keys', 'p50', 'p99', 'Requests/s', 'Errors', 'Non-2xx'],
    runs.map((run) => [
      scenarioLabels[run.scenario],
      String(run.connections),
      String(run.requests),
      String(run.keys),
      ms(run.p50Ms),
      ms(run.p99Ms),
      String(Math.round(run.requestsPerSecond)),
      String(run.errors),
      String(run.non2xx),
    ]),
    [1, 2, 3, 4, 5, 6, 7, 8],
  );

export function loadSection(results: BenchResults): string {
  return [
    '## 3. Throughput and latency under load',
    '',
    `Load from [autocannon](https://github.com/mcollina/autocannon) ${results.environment.autocannon}, in the bench's
process, against the local API (\`startLocalServer\`) in a process of its own, with the functions' code and DynamoDB
Local behind it: all of them share the machine's ${results.environment.cores} cores. Each run sends a fixed number of
requests: a new lead each time, or a note on one of ${noteProspectCount} prospects taken round robin, with an API key
taken round robin too (at least one key per connection, at most ${requestsPerKey} requests per key, under the limit of
120 a minute). A few requests before each scenario load the functions' modules and are not counted. Latencies are
those of 2xx answers, from autocannon's histogram (1 ms resolution).`,
    '',
    loadTable(results.load.empty),
    '',
    `![p50 and p99 latency by scenario and connections, with and without ${bulkProspectCount.toLocaleString('en-US')} prospects](${latencyChartFile})`,
    '',
    `Throughput here is bounded by this machine (the API, the load generator and DynamoDB Local's JVM share it), not by
the design: on AWS each call gets its own Lambda instance and DynamoDB on demand scales per partition.`,
  ].join('\n');
}

export function growthSection(results: BenchResults): string {
  const { bulk } = results;
  const before = results.operations.empty;
  const after = results.operations.bulk;
  const scanned = [...before, ...after].some((measure) => measure.calls.includes('Scan'));
  return [
    `## 4. How cost grows: ${bulkProspectCount.toLocaleString('en-US')} prospects`,
    '',
    `Two workspaces of one table, seeded alike: the first holds only the few hundred prospects the measures
write to, the second ${bulk.prospects.toLocaleString('en-US')} more, each prospect with its e-mail and phone markers
(the shapes of \`lib/storage/records.ts\`, the keys of \`lib/storage/keys.ts\`), written straight into the table
by parallel \`BatchWriteItem\`s.`,
    '',
    `Writing those ${bulk.items.toLocaleString('en-US')} items took ${bulk.seconds.toFixed(0)} s
(${Math.round(bulk.prospects / bulk.seconds).toLocaleString('en-US')} prospects a second on DynamoDB Local).`,
    '',
    `Every figure of sections 1 to 3 was measured after that write, the two workspaces taking turns (operation after
operation, load run after load run), so that both meet the code and DynamoDB Local equally warm. In the second, the known lead is one of the ${short} prospects. ${
      scanned
        ? '**A Scan was seen.**'
        : 'No operation used a Scan: every read goes by key, so neither round trips nor units depend on the number of prospects; latencies differ by the noise of a shared machine.'
    }`,
    '',
    table(
      [
        'Operation',
        'Round trips',
        'RRU',
        'WRU',
        'Latency',
        `Round trips (${short})`,
        `RRU (${short})`,
        `WRU (${short})`,
        `Latency (${short})`,
      ],
      before.map((measure, index) => {
        const grown = after[index];
        if (grown === undefined || grown.id !== measure.id) throw new Error('phases measured different operations');
        return [
          operationOf(measure).label,
          units(measure.roundTrips),
          units(measure.billed.read),
          units(measure.billed.write),
          ms(measure.latencyMs),
          units(grown.roundTrips),
          units(grown.billed.read),
          units(grown.billed.write),
          ms(grown.latencyMs),
        ];
      }),
      [1, 2, 3, 4, 5, 6, 7, 8],
    ),
    '',
    `Under load, with the ${short} prospects:`,
    '',
    loadTable(results.load.bulk),
  ].join('\n');
}

const short = `${bulkProspectCount / 1000}k`;

/** p50 and p99 of every run, without and with the bulk prospects. */
export function latencyChart(results: BenchResults): string {
  const empty = results.load.empty;
  return barChart({
    title: 'Latency under load through the local API (ms)',
    unit: 'milliseconds',
    series: [
      { name: 'p50, empty workspace', color: '#9ecae1' },
      { name: 'p99, empty workspace', color: '#3182bd' },
      { name: `p50, ${short} prospects`, color: '#fdae6b' },
      { name: `p99, ${short} prospects`, color: '#e6550d' },
    ],
    groups: empty.map((run) => {
      const grown = results.load.bulk.find(
        (candidate) => candidate.scenario === run.scenario && candidate.connections === run.connections,
      );
      if (grown === undefined) throw new Error('phases ran different loads');
      return {
        label: `${run.scenario === 'lead' ? 'Lead webhook' : 'POST note'} · ${run.connections} conn.`,
        values: [run.p50Ms, run.p99Ms, grown.p50Ms, grown.p99Ms],
      };
    }),
  });
}
