/**
 * Business metrics (docs/operations.md, "Metrics"): what the domain counts, named once here. The
 * domain only counts; where the counts go (CloudWatch embedded metric format on AWS, nothing
 * locally, a recorder in tests) is `Deps.metrics` (lib/observability/metrics.ts).
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
  | 'DeliveriesRequeued';

export type MetricDimension = 'code' | 'placement' | 'field' | 'limit';

export type MetricsSink = {
  count(metric: BusinessMetric, dimensions?: Partial<Record<MetricDimension, string>>, value?: number): void;
};
