import { jest } from '@jest/globals';
import { type BusinessMetric, logger, createMetrics, metricsEnabled } from '../../lib/observability';

/**
 * What Powertools prints: CloudWatch embedded metric format documents (Amazon CloudWatch User
 * Guide, "Specification: Embedded metric format"), one JSON object alone per stdout line.
 */

let stdout: string[];
let stderr: string[];
const capture = (into: () => string[]) => (chunk: string | Uint8Array) => {
  into().push(String(chunk));
  return true;
};

// Powertools reads POWERTOOLS_METRICS_DISABLED and POWERTOOLS_DEV from process.env itself (its
// dev mode would print through the global console): pinned here so the process's own does not leak in.
const saved = { disabled: process.env.POWERTOOLS_METRICS_DISABLED, dev: process.env.POWERTOOLS_DEV };
beforeAll(() => {
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
  delete process.env.POWERTOOLS_DEV;
});
afterAll(() => {
  if (saved.disabled === undefined) delete process.env.POWERTOOLS_METRICS_DISABLED;
  else process.env.POWERTOOLS_METRICS_DISABLED = saved.disabled;
  if (saved.dev !== undefined) process.env.POWERTOOLS_DEV = saved.dev;
});

beforeEach(() => {
  stdout = [];
  stderr = [];
  jest.spyOn(process.stdout, 'write').mockImplementation(capture(() => stdout));
  jest.spyOn(process.stderr, 'write').mockImplementation(capture(() => stderr));
});
afterEach(() => jest.restoreAllMocks());

/** Every line printed must be a JSON document on its own (no prefix, no trailing text). */
function documents(): Record<string, unknown>[] {
  const text = stdout.join('');
  expect(text === '' || text.endsWith('\n')).toBe(true);
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const onLambda = { AWS_LAMBDA_FUNCTION_NAME: 'crm-prod-ingest-lead', POWERTOOLS_METRICS_NAMESPACE: 'Crm/prod' };

const directive = (namespace: string, dimensions: string[][], names: string[]) => ({
  Timestamp: expect.any(Number),
  CloudWatchMetrics: [
    { Namespace: namespace, Dimensions: dimensions, Metrics: names.map((Name) => ({ Name, Unit: 'Count' })) },
  ],
});

test('a count with a dimension is printed at once, as its own document with the service and its dimension', () => {
  const metrics = createMetrics(onLambda);
  metrics.count('LeadsRefused', { code: 'invalid_payload' });
  metrics.count('ProspectChanges', { field: 'stage' });
  metrics.count('ProspectChanges', { field: 'tags' }, 2);
  expect(documents()).toEqual([
    {
      _aws: directive('Crm/prod', [['service', 'code']], ['LeadsRefused']),
      service: 'crm-ingest',
      code: 'invalid_payload',
      LeadsRefused: 1,
    },
    {
      _aws: directive('Crm/prod', [['service', 'field']], ['ProspectChanges']),
      service: 'crm-ingest',
      field: 'stage',
      ProspectChanges: 1,
    },
    {
      _aws: directive('Crm/prod', [['service', 'field']], ['ProspectChanges']),
      service: 'crm-ingest',
      field: 'tags',
      ProspectChanges: 2,
    },
  ]);
  // Nothing of them waits for publish().
  stdout.length = 0;
  metrics.publish();
  expect(documents()).toEqual([]);
});

test('plain counts wait for publish(): one document, the service their only dimension', () => {
  const metrics = createMetrics(onLambda);
  metrics.count('LeadsCreated');
  metrics.count('LeadWarnings', {}, 3);
  metrics.count('LeadsCreated');
  metrics.count('IdempotentReplays', { code: undefined });
  expect(documents()).toEqual([]);
  metrics.publish();
  expect(documents()).toEqual([
    {
      _aws: directive('Crm/prod', [['service']], ['LeadsCreated', 'LeadWarnings', 'IdempotentReplays']),
      service: 'crm-ingest',
      // Two values of one metric: CloudWatch takes each as a sample (its Sum is 2).
      LeadsCreated: [1, 1],
      LeadWarnings: 3,
      IdempotentReplays: 1,
    },
  ]);
});

test('a publish() with nothing counted prints nothing, not even a warning; the buffer starts afresh', () => {
  const metrics = createMetrics(onLambda);
  metrics.publish();
  metrics.count('DeliveriesDelivered');
  metrics.publish();
  metrics.publish();
  expect(documents().map((document) => document.DeliveriesDelivered)).toEqual([1]);
  expect(stderr).toEqual([]);
});

test('the namespace defaults to Crm/local', () => {
  const metrics = createMetrics({ AWS_LAMBDA_FUNCTION_NAME: 'f' });
  metrics.count('DeliveriesFailed');
  metrics.publish();
  expect(documents()).toEqual([
    { _aws: directive('Crm/local', [['service']], ['DeliveriesFailed']), service: 'crm-ingest', DeliveriesFailed: 1 },
  ]);
});

test.each([
  [{}, false],
  [{ AWS_LAMBDA_FUNCTION_NAME: 'f' }, true],
  [{ AWS_LAMBDA_FUNCTION_NAME: 'f', POWERTOOLS_METRICS_DISABLED: 'true' }, false],
  [{ AWS_LAMBDA_FUNCTION_NAME: 'f', POWERTOOLS_METRICS_DISABLED: ' ON ' }, false],
  [{ AWS_LAMBDA_FUNCTION_NAME: 'f', POWERTOOLS_METRICS_DISABLED: 'peut-être' }, false],
  [{ AWS_LAMBDA_FUNCTION_NAME: 'f', POWERTOOLS_METRICS_DISABLED: '' }, true],
  [{ POWERTOOLS_METRICS_DISABLED: 'false' }, true],
  [{ POWERTOOLS_METRICS_DISABLED: ' FALSE ' }, true],
  [{ POWERTOOLS_METRICS_DISABLED: '0' }, true],
])('enabled for %j: %s', (env, enabled) => {
  expect(metricsEnabled(env)).toBe(enabled);
});

test('disabled (npm start, the tests): counts and publishes print nothing', () => {
  for (const env of [{}, { ...onLambda, POWERTOOLS_METRICS_DISABLED: 'true' }]) {
    const metrics = createMetrics(env);
    metrics.count('LeadsCreated');
    metrics.count('RateLimited', { limit: 'requests' });
    metrics.publish();
  }
  expect(stdout).toEqual([]);
  expect(stderr).toEqual([]);
});

test('a count Powertools refuses is logged, never thrown, and the others are still published', () => {
  const errors = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
  const metrics = createMetrics(onLambda);
  const tooLong = 'M'.repeat(300) as BusinessMetric;
  expect(() => metrics.count(tooLong)).not.toThrow();
  expect(() => metrics.count(tooLong, { code: 'x' })).not.toThrow();
  metrics.count('CandidatesCreated');
  expect(() => metrics.publish()).not.toThrow();
  expect(errors.mock.calls.map(([message]) => message)).toEqual(['metric not counted', 'metric not counted']);
  expect(documents().map((document) => document.CandidatesCreated)).toEqual([1]);
});
