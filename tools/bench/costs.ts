/**
 * Prices of docs/deploy.md, "Cost per million calls": us-east-1, on demand, free tiers left out,
 * as published on the AWS pricing pages in 2025 (not read again since: no network here).
 */
export const prices = {
  apiGatewayPerMillion: 3.5,
  lambdaRequestsPerMillion: 0.2,
  lambdaGbSecond: 0.0000133334,
  writeUnitPerMillion: 0.625,
  readUnitPerMillion: 0.125,
} as const;

/** The stack's setting (infra/cdk/constructs/route-function.ts). */
export const memoryGb = 0.5;
/** docs/deploy.md's assumption: 1 % of invocations start a new instance. */
export const coldShare = 0.01;

const calls = 1_000_000;

export type CostInput = {
  /** Lambda invocations per call: the authorizer, then the handler. */
  invocations: number;
  /** Both invocations of one warm call, in seconds. */
  warmSeconds: number;
  /** The cold starts of the functions invoked (authorizer, handler), in seconds. */
  coldStartSeconds: readonly number[];
  readUnits: number;
  writeUnits: number;
};

export type CostLine = { item: string; arithmetic: string; dollars: number };

/** A price with its own decimals, at least two: $3.50, $0.625, $0.0000133334. */
export const price = (dollars: number) =>
  `$${dollars.toFixed(Math.max(2, String(dollars).split('.')[1]?.length ?? 0))}`;
const count = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 3 });
const seconds = (value: number) => `${value.toFixed(3)} s`;
const toMillisecond = (value: number) => Math.round(value * 1000) / 1000;

/** What a million calls of one operation cost, line by line with the arithmetic, and in total. */
export function costPerMillion(measured: CostInput): { lines: CostLine[]; total: number } {
  // Lambda bills by the millisecond: the arithmetic shown uses the times as rounded for display.
  const input = {
    ...measured,
    warmSeconds: toMillisecond(measured.warmSeconds),
    coldStartSeconds: measured.coldStartSeconds.map(toMillisecond),
  };
  const warmGbSeconds = calls * input.warmSeconds * memoryGb;
  const coldSeconds = input.coldStartSeconds.reduce((total, value) => total + value, 0);
  const initGbSeconds = calls * coldShare * coldSeconds * memoryGb;
  const lines: CostLine[] = [
    {
      item: 'API Gateway',
      arithmetic: `${count(calls)} × ${price(prices.apiGatewayPerMillion)} / 1,000,000`,
      dollars: prices.apiGatewayPerMillion,
    },
    {
      item: 'Lambda requests',
      arithmetic: `${count(calls * input.invocations)} × ${price(prices.lambdaRequestsPerMillion)} / 1,000,000`,
      dollars: input.invocations * prices.lambdaRequestsPerMillion,
    },
    {
      item: 'Lambda duration, warm',
      arithmetic: `${count(calls)} × ${seconds(input.warmSeconds)} × ${memoryGb} GB = ${count(Math.round(warmGbSeconds))} GB-s × ${price(prices.lambdaGbSecond)}`,
      dollars: warmGbSeconds * prices.lambdaGbSecond,
    },
    {
      item: 'Lambda duration, init',
      arithmetic: `${count(calls)} × ${coldShare * 100} % × (${input.coldStartSeconds.map(seconds).join(' + ')}) × ${memoryGb} GB = ${count(Math.round(initGbSeconds))} GB-s × ${price(prices.lambdaGbSecond)}`,
      dollars: initGbSeconds * prices.lambdaGbSecond,
    },
    {
      item: 'DynamoDB reads',
      arithmetic: `${count(calls)} × ${count(input.readUnits)} RRU × ${price(prices.readUnitPerMillion)} / 1,000,000`,
      dollars: input.readUnits * prices.readUnitPerMillion,
    },
    {
      item: 'DynamoDB writes',
      arithmetic: `${count(calls)} × ${count(input.writeUnits)} WRU × ${price(prices.writeUnitPerMillion)} / 1,000,000`,
      dollars: input.writeUnits * prices.writeUnitPerMillion,
    },
  ];
  return { lines, total: lines.reduce((total, line) => total + line.dollars, 0) };
}

/**
 * What a million calls of one measured operation cost: one API Gateway request, two invocations
 * (the authorizer, then the handler) billed for the latency measured, and their cold starts.
 */
export function operationCost(
  measure: { latencyMs: number; billed: { read: number; write: number } },
  coldStartMs: { authorizer: number; handler: number },
): { lines: CostLine[]; total: number } {
  return costPerMillion({
    invocations: 2,
    warmSeconds: measure.latencyMs / 1000,
    coldStartSeconds: [coldStartMs.authorizer / 1000, coldStartMs.handler / 1000],
    readUnits: measure.billed.read,
    writeUnits: measure.billed.write,
  });
}
