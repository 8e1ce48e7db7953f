import { beforeAfter } from './baseline';
import { sameCalls } from './budgets';
import { warmUpRounds, type CallUnits, type OperationMeasure } from './operation-costs';
import { operations } from './operations';
import { ms, table, units } from './markdown';
import type { BenchResults } from './results';

export function operationOf(measure: OperationMeasure) {
  const operation = operations.find((candidate) => candidate.id === measure.id);
  if (operation === undefined) throw new Error(`unknown operation ${measure.id}`);
  return operation;
}

const callUnits = (call: CallUnits) =>
  `${call.operation} ${[
    call.units.read > 0 ? `${units(call.units.read)} R` : '',
    call.units.write > 0 ? `${units(call.units.write)} W` : '',
  ]
    .filter(Boolean)
    .join(' ')}`;

export function operationsSection(results: BenchResults): string {
  const measures = results.operations.empty;
  const { baseline } = results;
  return [
    '## 2. DynamoDB round trips and capacity per operation',
    '',
    `Every operation once per round, ${results.repetitions} measured rounds after ${warmUpRounds} unmeasured ones,
through the local API (\`startLocalApi\`), whose one DynamoDB client serves the authorizer and the handlers, without
\`Idempotency-Key\`. The SDK middleware of \`tools/bench/meter.ts\` records every call as it leaves (the round trips
counted) and adds \`ReturnConsumedCapacity: TOTAL\` to it. Capacity is shown
twice: **billed**, computed from the items written and read with DynamoDB's documented rules
(\`tools/bench/capacity.ts\`: 1 RRU per 4 KB strongly consistent, half eventually consistent, a missing item at the
minimum; 1 WRU per KB, once more per index holding the item; twice for each item of a transaction), and as
**DynamoDB Local reports** it, which is not what AWS bills: it counts a transaction's items as one (three small
puts in one transaction: 2 units reported, 6 billed), a \`BatchGetItem\`'s missing keys as free, and reports nothing
for a write refused by its condition. Latency: median of the measured rounds, one request at a time, authorizer and
handler included.`,
    '',
    `**Before → after**: before is the bench of commit ${baseline.commit} (${baseline.date}), the last before issue 15
("Fewer DynamoDB round trips"), kept in \`tools/bench/baseline.json\`: ${baseline.note}. — where that run did not
measure the operation. **Target**: the most round trips issue 15 (writes, webhooks) or issue 16 (read routes) allows, authorizer included, a budget on the median
of the measured rounds in both workspaces. **Expected calls**: the calls \`tools/bench/operations.ts\` lists for the
operation, ✅ when those were made (in any order: parallel calls leave in no fixed order).`,
    '',
    table(
      [
        'Operation',
        'Round trips (before → after)',
        'Target',
        'Expected calls',
        'RRU billed (before → after)',
        'WRU billed (before → after)',
        'Local reports',
        'Latency (before → after)',
      ],
      measures.map((measure) => {
        const operation = operationOf(measure);
        const before = baseline.operations[measure.id];
        const asExpected = sameCalls(measure.calls, operation.expected.calls);
        return [
          operation.label,
          `${beforeAfter(before?.calls.length, measure.roundTrips, units)}${measure.stable ? '' : ' (varies)'}`,
          `${operation.target}${measure.roundTrips <= operation.target ? ' ✅' : ' ❌'}`,
          `${operation.expected.calls.length}${asExpected ? ' ✅' : ' ❌'}`,
          beforeAfter(before?.billed.read, measure.billed.read, units),
          beforeAfter(before?.billed.write, measure.billed.write, units),
          units(measure.reported),
          beforeAfter(before?.latencyMs, measure.latencyMs, ms),
        ];
      }),
      [1, 2, 3, 4, 5, 6, 7],
    ),
    '',
    `Calls in the order they left (R: read units, W: write units billed), and why the data model needs them; then the
calls of commit ${baseline.commit}:`,
    '',
    ...measures.map((measure) => {
      const operation = operationOf(measure);
      const before = baseline.operations[measure.id];
      return `- **${operation.label}**: ${measure.breakdown.map(callUnits).join(' · ')}. ${capitalize(operation.expected.reason)}. Before: ${before === undefined ? 'not measured' : before.calls.join(' · ')}.`;
    }),
  ].join('\n');
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
