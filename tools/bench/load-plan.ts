import { requestLimit } from '../../lib/storage/rate-limit';
import type { Phase } from './workspace';

/** Each key stays well under its limit of requests a minute, whatever minute the run falls in. */
export const requestsPerKey = Math.floor(requestLimit * (5 / 6));

/** Enough requests for a p99 at low concurrency, a few seconds of run at any. */
const minimumRequests = 400;
const requestsPerConnection = 40;

export type LoadPlan = { connections: number; requests: number; keys: number };

/**
 * How many requests a run sends and over how many API keys they are spread (round robin): at
 * least one key per connection, and never more than `requestsPerKey` requests on one key.
 */
export function loadPlan(connections: number): LoadPlan {
  const requests = Math.max(minimumRequests, requestsPerConnection * connections);
  return { connections, requests, keys: Math.max(connections, Math.ceil(requests / requestsPerKey)) };
}

export const connectionCounts = [1, 10, 50] as const;

/** The note runs spread over this many prospects, at least four per connection, so concurrent notes rarely meet. */
export const noteProspectCount = 200;

/** The API key labels of the note runs of one phase, seeded with the workspace. */
export function loadKeyLabels(phase: Phase): string[] {
  return connectionCounts.flatMap((connections) =>
    Array.from({ length: loadPlan(connections).keys }, (_, index) => loadKeyLabel(phase, connections, index)),
  );
}

export const loadKeyLabel = (phase: Phase, connections: number, index: number) =>
  `charge-${phase}-${connections}-${index}`;
