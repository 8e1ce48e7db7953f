import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { table } from './markdown';
import { costsSection } from './report-costs';
import { functionsSection } from './report-functions';
import { growthSection, latencyChart, latencyChartFile, loadSection } from './report-load';
import { operationsSection } from './report-operations';
import type { BenchResults } from './results';

/** docs/performance.md: written whole by every `npm run bench`. */
export function performanceReport(results: BenchResults): string {
  const { environment } = results;
  return [
    '# Performance',
    '',
    `Written by \`npm run bench\` (\`tools/bench/run.ts\`) on ${results.date}, in ${Math.round(results.seconds)} s.`,
    '',
    `Do not edit by hand: run it again. \`npm run bench -- --check\` also exits with 1 when a budget breaks. The bench
starts its own DynamoDB Local (in memory), seeds two workspaces with \`lib/admin/seed.ts\`, measures, and stops
everything it started. It is a tool, not part of \`npm test\`; its pure helpers are unit-tested in
\`test/unit/bench-*.test.ts\`.`,
    '',
    `Machine: ${environment.cpu}, ${environment.cores} cores, ${environment.memoryGb} GB, ${environment.os}.`,
    '',
    `Node ${environment.node}, ${environment.java}, esbuild ${environment.esbuild}.`,
    '',
    '## Budgets',
    '',
    table(
      ['Budget', 'Measured', ''],
      results.budgets.map((check) => [check.budget, check.measured, check.ok ? '✅' : '❌']),
    ),
    '',
    functionsSection(results),
    '',
    operationsSection(results),
    '',
    loadSection(results),
    '',
    growthSection(results),
    '',
    costsSection(results),
    '',
  ].join('\n');
}

const docs = fileURLToPath(new URL('../../docs/', import.meta.url));

/** docs/performance.md, formatted as the repository's Prettier check wants it, and its chart beside it. */
export async function writeReport(results: BenchResults): Promise<void> {
  const reportFile = path.join(docs, 'performance.md');
  const markdown = await format(performanceReport(results), {
    ...(await resolveConfig(reportFile)),
    filepath: reportFile,
  });
  await writeFile(reportFile, markdown);
  await writeFile(path.join(docs, latencyChartFile), latencyChart(results));
}
