import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import * as z from 'zod/mini';
import { operationCost } from './costs';

/**
 * The "before" of issue 15 (fewer DynamoDB round trips): what `npm run bench` measured at the
 * last commit before it, kept in `tools/bench/baseline.json` (copied from that run's results, not
 * measured again) so that every report shows before → after. Operations added since have no before.
 */
const measured = z.object({
  calls: z.array(z.string()),
  billed: z.object({ read: z.number(), write: z.number() }),
  latencyMs: z.number(),
});

const baselineSchema = z.object({
  commit: z.string().check(z.minLength(7)),
  date: z.string(),
  note: z.string(),
  referenceColdStartMs: z.number(),
  functions: z.record(z.string(), z.object({ coldStartMs: z.number(), bytes: z.number() })),
  operations: z.record(z.string(), measured),
});

export type Baseline = z.output<typeof baselineSchema>;
export type BaselineOperation = z.output<typeof measured>;

export const baselineFile = fileURLToPath(new URL('./baseline.json', import.meta.url));

/** The baseline as read from its JSON; anything missing or mistyped throws, naming the field. */
export function parseBaseline(json: unknown): Baseline {
  const parsed = baselineSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new Error(`${baselineFile}: ${issue?.path.join('.') ?? ''} ${issue?.message ?? 'invalid'}`.trim());
}

export async function readBaseline(file: string = baselineFile): Promise<Baseline> {
  return parseBaseline(JSON.parse(await readFile(file, 'utf8')) as unknown);
}

/** "5 → 3"; "— → 5" when there is no before (an operation the baseline did not measure). */
export function beforeAfter(
  before: number | undefined,
  after: number,
  format: (value: number) => string = String,
): string {
  return `${before === undefined ? '—' : format(before)} → ${format(after)}`;
}

/**
 * The cost per million calls of an operation as the baseline measured it, with the same function
 * as today's figures (`operationCost`): its units and latency, and the cold starts of the
 * authorizer and of its route's function at that commit. Undefined when it was not measured.
 */
export function costBefore(baseline: Baseline, operation: { id: string; routeId: string }): number | undefined {
  const measure = baseline.operations[operation.id];
  if (measure === undefined) return undefined;
  const coldStartOf = (name: string) => {
    const found = baseline.functions[name];
    if (found === undefined) throw new Error(`the baseline has no cold start for ${name}`);
    return found.coldStartMs;
  };
  return operationCost(measure, { authorizer: coldStartOf('authorizer'), handler: coldStartOf(operation.routeId) })
    .total;
}
