import type { BusinessMetric, MetricDimension } from '../../lib/observability';

/** The namespace of the stack's own metrics: one per stage, so two stages in one account do not add up. */
export const metricNamespace = (stage: string): string => `Crm/${stage}`;

/**
 * The `service` dimension every business metric carries (lib/observability.ts sets it, not
 * the function's POWERTOOLS_SERVICE_NAME): a metric is found only under its exact dimension set
 * ("Dimensions", https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/cloudwatch_concepts.html#Dimension),
 * so the alarms and the dashboard name it.
 */
export { metricsService } from '../../lib/observability';

/**
 * Each business metric of lib/observability.ts with its own dimension, if any, and its title on the
 * dashboard. A Record over the union: a metric added there and not here fails the type check.
 */
export const businessMetrics: Readonly<Record<BusinessMetric, { dimension?: MetricDimension; title: string }>> = {
  LeadsCreated: { title: 'Prospects créés (webhook)' },
  LeadsExisting: { title: 'Prospects déjà connus (webhook)' },
  LeadsRefused: { dimension: 'code', title: "Leads refusés, par code d'erreur" },
  LeadPlacements: { dimension: 'placement', title: 'Placement des leads' },
  LeadWarnings: { title: 'Avertissements des réponses (leads et candidats)' },
  CandidatesCreated: { title: 'Candidats créés' },
  CandidatesExisting: { title: 'Candidats déjà connus' },
  CandidatesRefused: { dimension: 'code', title: "Candidatures refusées, par code d'erreur" },
  ProspectChanges: { dimension: 'field', title: 'Modifications par l’API Prospects, par champ' },
  RateLimited: { dimension: 'limit', title: 'Réponses 429, par limite' },
  IdempotentReplays: { title: 'Réponses rejouées (Idempotency-Key)' },
  DeliveriesDelivered: { title: 'Événements livrés' },
  DeliveriesFailed: { title: 'Livraisons abandonnées (statut failed)' },
  DeliveriesRequeued: { title: 'Livraisons remises en file par le balayage' },
  FollowUpsQueued: { title: 'Rappels mis en file' },
  FollowUpsSent: { title: 'Rappels dus envoyés (prospect.follow_up_due)' },
  FollowUpsLate: { title: 'Rappels dus envoyés en retard' },
};

/**
 * Log levels of Powertools Logger ("Log levels",
 * https://docs.powertools.aws.dev/lambda/typescript/latest/core/logger/#log-levels).
 */
export const powertoolsLogLevels = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'CRITICAL', 'SILENT'] as const;
export type PowertoolsLogLevel = (typeof powertoolsLogLevels)[number];

export const isPowertoolsLogLevel = (value: unknown): value is PowertoolsLogLevel =>
  (powertoolsLogLevels as readonly unknown[]).includes(value);

/** What every function of a stage shares in its Powertools environment. */
export type PowertoolsSettings = { metricsNamespace: string; logLevel: PowertoolsLogLevel };

/**
 * The variables Powertools reads at cold start ("Environment variables",
 * https://docs.powertools.aws.dev/lambda/typescript/latest/environment-variables/): the function's
 * name as the logs' `service`, the stage's namespace for the metrics, and the log level.
 */
export const powertoolsEnvironment = (serviceName: string, settings: PowertoolsSettings): Record<string, string> => ({
  POWERTOOLS_SERVICE_NAME: serviceName,
  POWERTOOLS_METRICS_NAMESPACE: settings.metricsNamespace,
  POWERTOOLS_LOG_LEVEL: settings.logLevel,
});
