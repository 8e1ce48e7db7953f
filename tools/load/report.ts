import type { Check, Outcome } from './verify';

export type RunFacts = {
  requests: number;
  concurrency: number;
  workspaces: number;
  seed: number;
  seconds: number;
  notSent: number;
};

const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number);

function row(label: string, outcomes: readonly Outcome[]): string {
  const statuses = new Map<number, number>();
  outcomes.forEach((outcome) => statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1));
  const breakdown = [...statuses]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${status}: ${count}`)
    .join(', ');
  const ms = outcomes.map((outcome) => outcome.ms).sort((a, b) => a - b);
  return `| ${label} | ${outcomes.length} | ${breakdown} | ${percentile(ms, 50).toFixed(0)} | ${percentile(ms, 99).toFixed(0)} | ${(ms.at(-1) ?? 0).toFixed(0)} |`;
}

/** The figures docs/reliability.md quotes, as Markdown. */
export function report(facts: RunFacts, outcomes: readonly Outcome[], checks: readonly Check[]): string {
  const kinds = [
    ['lead webhook', outcomes.filter((outcome) => outcome.request.kind === 'lead')],
    ['PATCH', outcomes.filter((outcome) => outcome.request.kind === 'patch')],
    ['POST notes', outcomes.filter((outcome) => outcome.request.kind === 'note')],
  ] as const;
  return [
    `${facts.requests} requests planned (seed ${facts.seed}), ${facts.concurrency} at a time, ` +
      `${facts.workspaces} workspaces; ${outcomes.length} sent in ${facts.seconds.toFixed(1)} s ` +
      `(${(outcomes.length / facts.seconds).toFixed(0)} requests/s), ${facts.notSent} not sent (time bound).`,
    '',
    '| Requests | Sent | Statuses | p50 (ms) | p99 (ms) | max (ms) |',
    '| --- | --- | --- | --- | --- | --- |',
    ...kinds.map(([label, selected]) => row(label, selected)),
    row('all', outcomes),
    '',
    '| Verified in the table afterwards | Checked | Failures |',
    '| --- | --- | --- |',
    ...checks.map((check) => `| ${check.name} | ${check.checked} | ${check.failures.length} |`),
    ...checks.flatMap((check) => check.failures.slice(0, 10).map((failure) => `- ${check.name}: ${failure}`)),
  ].join('\n');
}
