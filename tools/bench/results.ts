import type { Baseline } from './baseline';
import type { BudgetCheck } from './budgets';
import type { Bundle } from './bundles';
import type { ColdStart } from './cold-start';
import type { LoadRun } from './load';
import type { OperationMeasure } from './operation-costs';
import type { Phase } from './workspace';

/** Medians over the runs of one function. */
export type ColdStartSummary = ColdStart & { runs: number };

export type FunctionResult = Bundle & { coldStart: ColdStartSummary };

export type Environment = {
  cpu: string;
  cores: number;
  memoryGb: number;
  os: string;
  node: string;
  java: string;
  autocannon: string;
  esbuild: string;
};

/** Everything one `npm run bench` measured, as the report and the budget check read it. */
export type BenchResults = {
  date: string;
  seconds: number;
  environment: Environment;
  functions: FunctionResult[];
  reference: FunctionResult;
  /** The machine's one-minute load average at the end of the cold starts. */
  coldStartLoadAverage: number;
  /** Of each operation, in each phase. */
  repetitions: number;
  operations: Record<Phase, OperationMeasure[]>;
  load: Record<Phase, LoadRun[]>;
  bulk: { prospects: number; items: number; seconds: number };
  budgets: BudgetCheck[];
  /** What the bench measured before issue 15 (tools/bench/baseline.json), for before → after. */
  baseline: Baseline;
};
