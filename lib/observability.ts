import { LogFormatter, LogItem, Logger, LogLevelThreshold } from '@aws-lambda-powertools/logger';
import type { LogAttributes, UnformattedAttributes } from '@aws-lambda-powertools/logger/types';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Context } from 'aws-lambda';

/*
 * What every function tells its operators (docs/architecture.md, "Logs"; docs/operations.md, "Metrics"):
 * its log lines, through the one logger of the process, and its business metrics, named here and
 * published as CloudWatch embedded metric format documents.
 */

/**
 * The one logger of the process (Powertools for AWS Lambda, Logger: https://docs.aws.amazon.com/powertools/typescript/latest/features/logger/).
 * One JSON object per line with `level`, `message`, `timestamp`, `service`, `cold_start`,
 * `function_name`, `function_request_id`, `correlation_id` and our keys (docs/architecture.md, "Logs").
 *
 * What is never logged, at any level: events, bodies, headers, query strings, path parameters,
 * stored items, URLs of subscriptions; nothing a caller sent. Lines carry ids, counts, codes and
 * error names, messages and stacks (`errorFields`), never an error's other properties: an SDK error
 * may carry the item a condition failed on. The invocation event is never passed to the logger, so
 * POWERTOOLS_LOGGER_LOG_EVENT has nothing to print.
 */

const levels = ['DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT'] as const;
export type CrmLogLevel = (typeof levels)[number];

/** POWERTOOLS_LOG_LEVEL, any case; anything else is INFO. SILENT is for the tests (test/support/global-setup.js). */
export function logLevelFrom(env: NodeJS.ProcessEnv = process.env): CrmLogLevel {
  const value = env.POWERTOOLS_LOG_LEVEL?.trim().toUpperCase();
  return levels.find((level) => level === value) ?? 'INFO';
}

/**
 * `npm start` in a terminal sets CRM_LOG_FORMAT=readable (tools/local/start.ts) before any function
 * is imported; everywhere else (Lambda, tests, `npm start` piped to a file) lines are JSON.
 */
const readable = process.env.CRM_LOG_FORMAT === 'readable';

/**
 * Log items for a person reading a terminal (`npm start`): the time of day, the level, the message,
 * then our keys. What only matters in CloudWatch (service, function ARN and memory, sampling rate,
 * X-Ray trace) is left out; the JSON lines of the Lambda functions keep it all.
 */
export class ReadableLogFormatter extends LogFormatter {
  formatAttributes(attributes: UnformattedAttributes, additional: LogAttributes): LogItem {
    const context = attributes.lambdaContext;
    return new LogItem({
      attributes: {
        time: clockTime(attributes.timestamp),
        level: attributes.logLevel,
        message: attributes.message,
        ...(context?.coldStart === true ? { cold_start: true } : {}),
      },
    }).addAttributes(additional);
  }
}

function clockTime(at: Date): string {
  return [at.getHours(), at.getMinutes(), at.getSeconds()].map((part) => String(part).padStart(2, '0')).join(':');
}

/**
 * One item as `HH:MM:SS LEVEL message key=value…`: a text with a space, a quote or an equals sign
 * is quoted as JSON, any other value written as JSON; an error reads `Name: message`, its stack below.
 */
export function readableLine(attributes: LogAttributes): string {
  const { time, level, message, ...rest } = attributes;
  const parts = [String(time ?? ''), String(level ?? '').padEnd(5), String(message ?? '')];
  let stack: string | undefined;
  for (const [key, value] of Object.entries(rest)) {
    if (key === 'error' && typeof value === 'object' && value !== null) {
      // As `errorFields` writes them: `{ name, message, stack }`.
      const error = value as Partial<ErrorFields>;
      parts.push(`error=${quoted(`${String(error.name)}: ${String(error.message)}`)}`);
      if (typeof error.stack === 'string') stack = error.stack.split('\n').slice(1).join('\n');
      continue;
    }
    parts.push(`${key}=${typeof value === 'string' ? quoted(value) : JSON.stringify(value)}`);
  }
  return stack ? `${parts.join(' ')}\n${stack}` : parts.join(' ');
}

function quoted(text: string): string {
  return text === '' || /[\s"=]/.test(text) ? JSON.stringify(text) : text;
}

/**
 * Powertools prints what its formatter returns as JSON; a terminal line is not JSON, so the readable
 * form is printed here, on the streams Powertools uses (stdout up to INFO, stderr from WARN).
 */
class CrmLogger extends Logger {
  protected override printLog(logLevel: number, log: LogItem): void {
    if (!readable) return super.printLog(logLevel, log);
    log.prepareForPrint();
    const stream = logLevel >= LogLevelThreshold.WARN ? process.stderr : process.stdout;
    stream.write(`${readableLine(log.getAttributes())}\n`);
  }
}

export const logger = new CrmLogger({
  serviceName: process.env.POWERTOOLS_SERVICE_NAME || 'crm-ingest',
  logLevel: logLevelFrom(),
  // No debug sampling: DEBUG is turned on for a function by its environment, never at random.
  sampleRateValue: 0,
  ...(readable ? { logFormatter: new ReadableLogFormatter() } : {}),
});

export type ErrorFields = { name: string; message: string; stack?: string };

/** An error as logged: its name, message and stack, nothing else it carries. */
export function errorFields(error: unknown): { error?: ErrorFields } {
  if (!(error instanceof Error)) return {};
  return { error: { name: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}) } };
}

/** What an invocation's lines carry besides the Lambda context. */
export type Invocation = {
  /** The Lambda context; absent when a local stand-in calls the handler without one. */
  context?: Context;
  /** API Gateway's request id (the answer's `x-request-id`); absent for the stream and the queue. */
  correlationId?: string;
  keys?: Record<string, string>;
};

/** The invocation whose keys the logger carries; another one observed inside it gives them back when it ends. */
let observing: Invocation | undefined;

const carry = (invocation: Invocation) => {
  if (invocation.context) logger.addContext(invocation.context);
  if (invocation.correlationId) logger.setCorrelationId(invocation.correlationId);
  if (invocation.keys) logger.appendKeys(invocation.keys);
};

/**
 * One invocation of a function: its context, correlation id and keys on every line it logs, and
 * its buffered metrics published at its end, whatever the outcome. Keys are per process: in Lambda
 * an environment runs one invocation at a time ("Understanding the Lambda execution environment
 * lifecycle"); the local server's concurrent requests may mix them. An invocation inside another (the
 * local server serves the Lambda API in the process of the function that invokes, the replay's) ends by
 * giving the outer one its keys back.
 */
export async function observeInvocation<T>(
  metrics: { publish(): void },
  invocation: Invocation,
  run: () => Promise<T>,
): Promise<T> {
  const outer = observing;
  observing = invocation;
  carry(invocation);
  try {
    return await run();
  } finally {
    try {
      metrics.publish();
    } catch (error) {
      // Counts lost are no reason to fail the invocation that has already done its work.
      logger.error('metrics not published', errorFields(error));
    }
    logger.resetKeys();
    observing = outer;
    if (outer) carry(outer);
  }
}

/**
 * Business metrics (docs/operations.md, "Metrics"): what the domain counts, named once here. The
 * domain only counts; where the counts go (CloudWatch embedded metric format on AWS, nothing
 * locally, a recorder in tests) is `Deps.metrics` (`createMetrics`, below).
 */
export type BusinessMetric =
  | 'LeadsCreated'
  | 'LeadsExisting'
  /** Dimension `code`: the error code answered (invalid_payload, not_found, unauthorized…). */
  | 'LeadsRefused'
  /** Dimension `placement`: where a lead landed (the lead webhook's `placement` answer). */
  | 'LeadPlacements'
  /** One per warning of a lead or candidate answer. */
  | 'LeadWarnings'
  | 'CandidatesCreated'
  | 'CandidatesExisting'
  /** Dimension `code`: the error code the recruitment webhook answered. */
  | 'CandidatesRefused'
  /** Dimension `field`: a Prospect API change, named as in the change log (stage, setter, closer, follow_up, tags, note). */
  | 'ProspectChanges'
  /** Dimension `limit`: the limit that answered 429 (`requests` or `stage_changes`). */
  | 'RateLimited'
  /** A first answer replayed under its Idempotency-Key. */
  | 'IdempotentReplays'
  | 'DeliveriesDelivered'
  | 'DeliveriesFailed'
  /** A pending delivery whose message was lost, queued again by the sweep. */
  | 'DeliveriesRequeued'
  /** Follow-ups queued by the follow-up sweep (docs/events.md, "Follow-ups falling due"). */
  | 'FollowUpsQueued'
  /** Follow-ups marked sent: each makes one `prospect.follow_up_due`; `FollowUpsLate` those sent late. */
  | 'FollowUpsSent'
  | 'FollowUpsLate';

export type MetricDimension = 'code' | 'placement' | 'field' | 'limit';

export type MetricsSink = {
  count(metric: BusinessMetric, dimensions?: Partial<Record<MetricDimension, string>>, value?: number): void;
};

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
