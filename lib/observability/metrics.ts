import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { MetricsSink } from '../domain/metrics';
import { errorFields, logger } from './logger';

/** What a function's invocation counts into, and publishes once at its end (the route wrappers' `finally`). */
export type PublishedMetrics = MetricsSink & { publish(): void };

/** The one service dimension of every metric: dashboards and alarms name the exact dimension sets. */
export const metricsService = 'crm-ingest';
export const defaultMetricsNamespace = 'Crm/local';

// The values Powertools reads as "false" in POWERTOOLS_METRICS_DISABLED (its `extendedParsing`);
// any other value disables, where Powertools would throw.
const enablingValues = new Set(['0', 'n', 'no', 'f', 'false', 'off']);

/**
 * Published on Lambda (`AWS_LAMBDA_FUNCTION_NAME`, which the runtime always sets: AWS Lambda
 * Developer Guide, "Defined runtime environment variables"), not elsewhere: `npm start` and the
 * tests print no metric documents. POWERTOOLS_METRICS_DISABLED, when set, decides either way.
 * (Powertools reads that variable, and POWERTOOLS_DEV, from process.env too: on Lambda, where
 * neither is set unless the stack says so, both readings agree.)
 */
export function metricsEnabled(env: NodeJS.ProcessEnv): boolean {
  const disabled = env.POWERTOOLS_METRICS_DISABLED?.trim().toLowerCase();
  if (disabled) return enablingValues.has(disabled);
  return Boolean(env.AWS_LAMBDA_FUNCTION_NAME);
}

const unpublished: PublishedMetrics = { count: () => undefined, publish: () => undefined };

/**
 * Business metrics as CloudWatch embedded metric format documents (Amazon CloudWatch User Guide,
 * "Specification: Embedded metric format"): JSON log events whose `_aws.CloudWatchMetrics`
 * directive names the namespace, the dimension sets and the metrics, extracted by CloudWatch Logs
 * with no API call. Powertools writes each document with its own `Console` on stdout, not the
 * runtime's `console`, whose lines Lambda prefixes with a timestamp, request id and level in its
 * text log format ("Log and monitor Node.js Lambda functions"), while the specification wants a
 * log event that is the JSON object alone. A count with dimensions is its own document (`singleMetric()`, printed
 * at once), since one document's dimensions apply to all its metrics; plain counts wait in one
 * document for `publish()`. Counting never fails the request: a metric lost is logged, not thrown.
 */
export function createMetrics(env: NodeJS.ProcessEnv = process.env): PublishedMetrics {
  if (!metricsEnabled(env)) return unpublished;
  const metrics = new Metrics({
    namespace: env.POWERTOOLS_METRICS_NAMESPACE || defaultMetricsNamespace,
    serviceName: metricsService,
    // Powertools' own warnings (a dimension it drops, say) as our log lines.
    logger,
  });
  return {
    count(metric, dimensions = {}, value = 1) {
      guarded('metric not counted', () => {
        const named = Object.entries(dimensions).filter((entry): entry is [string, string] => entry[1] !== undefined);
        if (named.length === 0) {
          metrics.addMetric(metric, MetricUnit.Count, value);
          return;
        }
        const single = metrics.singleMetric();
        for (const [name, dimensionValue] of named) single.addDimension(name, dimensionValue);
        single.addMetric(metric, MetricUnit.Count, value);
      });
    },
    publish() {
      // Powertools warns on an empty flush: an invocation that counted nothing prints nothing.
      guarded('metrics not published', () => {
        if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
      });
    },
  };
}

function guarded(message: string, write: () => void): void {
  try {
    write();
  } catch (error) {
    logger.error(message, errorFields(error));
  }
}
