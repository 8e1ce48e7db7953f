import { costBefore } from './baseline';
import { coldShare, memoryGb, operationCost, price, prices } from './costs';
import { dollars, table } from './markdown';
import { operationOf } from './report-operations';
import type { BenchResults, FunctionResult } from './results';

export function costsSection(results: BenchResults): string {
  const coldStartOf = (name: string): FunctionResult => {
    const found = results.functions.find((result) => result.name === name);
    if (found === undefined) throw new Error(`no cold start measured for ${name}`);
    return found;
  };
  const authorizer = coldStartOf('authorizer');
  const costs = results.operations.empty.map((measure) => {
    const operation = operationOf(measure);
    const handler = coldStartOf(operation.routeId);
    return {
      label: operation.label,
      before: costBefore(results.baseline, operation),
      ...operationCost(measure, { authorizer: authorizer.coldStart.totalMs, handler: handler.coldStart.totalMs }),
    };
  });
  const itemNames = costs[0]?.lines.map((line) => line.item) ?? [];
  return [
    '## 5. Cost per million calls on AWS',
    '',
    `Prices of [docs/deploy.md](deploy.md#cost-per-million-calls): us-east-1, on demand, free tiers left out, as
published in 2025 and not read again since (no network here: check them before quoting).`,
    '',
    table(
      ['Price', 'Value'],
      [
        ['API Gateway REST API, first 333 million requests', `${price(prices.apiGatewayPerMillion)} per million`],
        ['Lambda requests', `${price(prices.lambdaRequestsPerMillion)} per million`],
        ['Lambda duration, arm64', `${price(prices.lambdaGbSecond)} per GB-second`],
        ['DynamoDB on demand, write request unit (WRU)', `${price(prices.writeUnitPerMillion)} per million`],
        ['DynamoDB on demand, read request unit (RRU)', `${price(prices.readUnitPerMillion)} per million`],
      ],
    ),
    '',
    `Per call: one API Gateway request; two Lambda invocations (authorizer, then handler, 512 MB = ${memoryGb} GB each)
billed for the latency measured in section 2 (both invocations together, local gateway included: an upper bound);
${coldShare * 100} % of invocations starting cold, billed for the cold start measured in section 1 (first answer
included: an upper bound); the units billed of section 2. CloudWatch Logs (about $0.53 per million calls) and X-Ray
($1.30 to $10 per million, depending on traffic) come on top, as docs/deploy.md explains.`,
    '',
    `**Total before**: the same arithmetic on what the bench of commit ${results.baseline.commit} (${results.baseline.date},
before issue 15) measured: its units, latency and cold starts (\`tools/bench/baseline.json\`); — where it did not
measure the operation. The other columns and **Total after** are this run's.`,
    '',
    table(
      ['Operation', ...itemNames, 'Total before', 'Total after'],
      costs.map((cost) => [
        cost.label,
        ...cost.lines.map((line) => dollars(line.dollars)),
        cost.before === undefined ? '—' : dollars(cost.before),
        `**${dollars(cost.total)}**`,
      ]),
      itemNames.map((_, index) => index + 1).concat(itemNames.length + 1, itemNames.length + 2),
    ),
    '',
    'The arithmetic, per million calls:',
    '',
    ...costs.flatMap((cost) => [
      `- **${cost.label}** (${dollars(cost.total)})`,
      ...cost.lines.map((line) => `  - ${line.item}: ${line.arithmetic} = ${dollars(line.dollars)}`),
    ]),
  ].join('\n');
}
