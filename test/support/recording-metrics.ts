import type { BusinessMetric, MetricDimension, PublishedMetrics } from '../../lib/observability';

export type RecordedCount = {
  metric: BusinessMetric;
  dimensions: Partial<Record<MetricDimension, string>>;
  value: number;
};

export type RecordingMetrics = PublishedMetrics & {
  /** Every count, in order, published or not. */
  readonly counts: RecordedCount[];
  /** How many times `publish()` was called. */
  readonly publications: () => number;
  /** The total counted for `metric`, with these dimensions when given (exactly these: none is `{}`). */
  total(metric: BusinessMetric, dimensions?: Partial<Record<MetricDimension, string>>): number;
  /** `metric`'s totals by the value of its one dimension, e.g. `{ stage: 1, tags: 2 }`. */
  byDimension(metric: BusinessMetric, dimension: MetricDimension): Record<string, number>;
  clear(): void;
};

/** The `Deps.metrics` of tests: keeps what the code counts, in memory, instead of printing EMF documents. */
export function recordingMetrics(): RecordingMetrics {
  const counts: RecordedCount[] = [];
  let publications = 0;
  const sameDimensions = (a: RecordedCount['dimensions'], b: RecordedCount['dimensions']) =>
    JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());
  return {
    counts,
    count(metric, dimensions = {}, value = 1) {
      counts.push({ metric, dimensions: { ...dimensions }, value });
    },
    publish() {
      publications += 1;
    },
    publications: () => publications,
    total(metric, dimensions) {
      return counts
        .filter((entry) => entry.metric === metric && (!dimensions || sameDimensions(entry.dimensions, dimensions)))
        .reduce((sum, entry) => sum + entry.value, 0);
    },
    byDimension(metric, dimension) {
      const totals: Record<string, number> = {};
      for (const entry of counts) {
        const value = entry.dimensions[dimension];
        if (entry.metric === metric && value !== undefined) totals[value] = (totals[value] ?? 0) + entry.value;
      }
      return totals;
    },
    clear() {
      counts.length = 0;
      publications = 0;
    },
  };
}
