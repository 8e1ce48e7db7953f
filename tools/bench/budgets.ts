/** The budgets of issues 7 and 15, kept by `npm run bench -- --check`. */
export const maxColdStartRatio = 1.5;
export const maxBundleBytes = 1_000_000;

export type BudgetCheck = { budget: string; measured: string; ok: boolean };

export type BudgetInputs = {
  /** The functions of the stack (the reference excluded). */
  functions: readonly { name: string; bytes: number; coldStartMs: number }[];
  referenceColdStartMs: number;
  /** Every operation in every phase: its median round trips and the most issue 15 allows. */
  operations: readonly { label: string; roundTrips: number; target: number }[];
  load: readonly { label: string; errors: number; non2xx: number; status5xx: number }[];
};

const sortedList = (calls: readonly string[]) => [...calls].sort().join(',');

/** The same DynamoDB calls, in any order: calls made in parallel leave in no fixed order. */
export const sameCalls = (calls: readonly string[], others: readonly string[]) =>
  sortedList(calls) === sortedList(others);

export function heaviest<T extends { bytes: number }>(functions: readonly T[]): T {
  const found = functions.reduce<T | undefined>(
    (top, candidate) => (top && top.bytes >= candidate.bytes ? top : candidate),
    undefined,
  );
  if (found === undefined) throw new Error('no function bundled');
  return found;
}

export function checkBudgets(inputs: BudgetInputs): BudgetCheck[] {
  const top = heaviest(inputs.functions);
  const ratio = top.coldStartMs / inputs.referenceColdStartMs;
  const over = inputs.operations.filter((operation) => operation.roundTrips > operation.target);
  const failing = inputs.load.filter((run) => run.errors > 0 || run.non2xx > 0);
  const count = (field: 'errors' | 'non2xx' | 'status5xx') => inputs.load.reduce((total, run) => total + run[field], 0);
  return [
    {
      budget: `Cold start of the heaviest function ≤ ${maxColdStartRatio} × the reference`,
      measured: `${top.name}: ${ratio.toFixed(2)} × (${Math.round(top.coldStartMs)} ms against ${Math.round(inputs.referenceColdStartMs)} ms)`,
      ok: ratio <= maxColdStartRatio,
    },
    {
      budget: `Heaviest bundle ≤ ${formatBytes(maxBundleBytes)} minified`,
      measured: `${top.name}: ${formatBytes(top.bytes)} (${Math.round((top.bytes / maxBundleBytes) * 100)} % of the budget)`,
      ok: top.bytes <= maxBundleBytes,
    },
    {
      budget: "DynamoDB round trips within the issue's targets",
      measured:
        over.length === 0
          ? `${inputs.operations.length} of ${inputs.operations.length} operations within their target`
          : over
              .map((operation) => `${operation.label}: ${operation.roundTrips} round trips, target ${operation.target}`)
              .join('; '),
      ok: over.length === 0,
    },
    {
      budget: 'Zero 5xx (and no other error) under load',
      measured:
        failing.length === 0
          ? `${inputs.load.length} runs, 0 errors`
          : `${count('status5xx')} 5xx, ${count('non2xx')} non-2xx, ${count('errors')} socket errors or timeouts (${failing.map((run) => run.label).join(', ')})`,
      ok: failing.length === 0,
    },
  ];
}

/** Decimal units: 1 MB is 1,000,000 bytes, 1 KB 1,000. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1_000_000) return `${(bytes / 1_000_000).toFixed(2)} MB`;
  return `${(bytes / 1000).toFixed(1)} KB`;
}
