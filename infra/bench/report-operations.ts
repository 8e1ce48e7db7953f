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
  return [
    '## 2. DynamoDB round trips and capacity per operation',
    '',
    `Every operation once per round, ${results.repetitions} measured rounds after ${warmUpRounds} unmeasured ones,
through the local API (\`startLocalApi\`), whose one DynamoDB client serves the authorizer and the handlers, without
\`Idempotency-Key\`. The SDK middleware of \`infra/bench/meter.ts\` records every call as it leaves (the round trips
counted) and adds \`ReturnConsumedCapacity: TOTAL\` to it. Capacity is shown
twice: **billed**, computed from the items written and read with DynamoDB's documented rules
(\`infra/bench/capacity.ts\`: 1 RRU per 4 KB strongly consistent, half eventually consistent, a missing item at the
minimum; 1 WRU per KB, once more per index holding the item; twice for each item of a transaction), and as
**DynamoDB Local reports** it, which is not what AWS bills: it counts a transaction's items as one (three small
puts in one transaction: 2 units reported, 6 billed), a \`BatchGetItem\`'s missing keys as free, and reports nothing
for a write refused by its condition. Latency: median of the measured rounds, one request at a time, authorizer and
handler included.`,
    '',
    table(
      ['Operation', 'Round trips', 'Minimum', 'RRU billed', 'WRU billed', 'Local reports', 'Latency'],
      measures.map((measure) => {
        const operation = operationOf(measure);
        const atMinimum = sameCalls(measure.calls, operation.minimum.calls);
        return [
          operation.label,
          `${measure.calls.length}${measure.stable ? '' : ' (varies)'}`,
          `${operation.minimum.calls.length}${atMinimum ? ' ✅' : ' ❌'}`,
          units(measure.billed.read),
          units(measure.billed.write),
          units(measure.reported),
          ms(measure.latencyMs),
        ];
      }),
      [1, 3, 4, 5, 6],
    ),
    '',
    'Calls in the order they left (R: read units, W: write units billed), and why the data model allows no fewer:',
    '',
    ...measures.map((measure) => {
      const operation = operationOf(measure);
      return `- **${operation.label}**: ${measure.breakdown.map(callUnits).join(' · ')}. ${capitalize(operation.minimum.reason)}.`;
    }),
  ].join('\n');
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
