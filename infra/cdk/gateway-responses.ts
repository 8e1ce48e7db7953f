import { routes, type ErrorShape } from '../../lib/routes';

/**
 * What API Gateway answers by itself (before or instead of a handler), rewritten into the
 * specification's error shapes. The CDK stack turns these into gateway responses (VTL picking
 * the shape from $context.resourcePath) and the local server answers the same bodies, so both
 * behave alike. `statusCode` replaces API Gateway's status; without it the original one stays.
 */
export type GatewayResponseType =
  | 'UNAUTHORIZED'
  | 'ACCESS_DENIED'
  | 'MISSING_AUTHENTICATION_TOKEN'
  | 'REQUEST_TOO_LARGE'
  | 'THROTTLED'
  | 'DEFAULT_4XX'
  | 'DEFAULT_5XX';

type Answer = { code: string; message: string };

export type GatewayResponse = { statusCode?: number; standard: Answer; lead: Answer };

export const gatewayResponses: Record<GatewayResponseType, GatewayResponse> = {
  UNAUTHORIZED: {
    standard: { code: 'unauthorized', message: "Identifiant d'accès manquant, invalide ou révoqué." },
    lead: { code: 'unauthorized', message: 'Jeton du webhook manquant ou invalide, ou webhook désactivé.' },
  },
  ACCESS_DENIED: {
    standard: { code: 'forbidden', message: 'Accès refusé.' },
    lead: { code: 'unauthorized', message: 'Jeton du webhook manquant ou invalide, ou webhook désactivé.' },
  },
  /** An unknown path or method: API Gateway's "Missing Authentication Token" 403 becomes a 404. */
  MISSING_AUTHENTICATION_TOKEN: {
    statusCode: 404,
    standard: { code: 'not_found', message: "Cette route n'existe pas." },
    lead: { code: 'not_found', message: "Cette route n'existe pas." },
  },
  REQUEST_TOO_LARGE: {
    standard: { code: 'bad_request', message: 'Le corps de la requête est trop volumineux.' },
    lead: { code: 'invalid_payload', message: 'Le corps de la requête est trop volumineux.' },
  },
  THROTTLED: {
    standard: { code: 'rate_limited', message: 'Trop de requêtes : réessayez dans quelques instants.' },
    lead: { code: 'ingest_failed', message: 'Trop de requêtes : réessayez dans quelques instants.' },
  },
  DEFAULT_4XX: {
    standard: { code: 'bad_request', message: 'Requête invalide.' },
    lead: { code: 'invalid_payload', message: 'Requête invalide.' },
  },
  DEFAULT_5XX: {
    standard: { code: 'internal', message: 'Erreur interne : réessayez dans quelques instants.' },
    lead: {
      code: 'ingest_failed',
      message: "Le prospect n'a pas pu être enregistré : réessayez dans quelques instants.",
    },
  },
};

/**
 * Headers every gateway response adds, mapped by API Gateway from its context: the request id the
 * handlers also answer with and log (lib/http/route-handler.ts).
 */
export const gatewayResponseHeaders = { 'x-request-id': 'context.requestId' } as const;

const leadPaths = routes.filter((route) => route.errorShape === 'lead').map((route) => route.path);

export function shapeOfResource(resourcePath: string | undefined): ErrorShape {
  return resourcePath !== undefined && leadPaths.includes(resourcePath) ? 'lead' : 'standard';
}

export function gatewayResponseBody(answer: Answer, shape: ErrorShape): string {
  return JSON.stringify(
    shape === 'lead'
      ? { error: answer.code, message: answer.message }
      : { error: { code: answer.code, message: answer.message } },
  );
}

/** The mapping template of one gateway response: the lead webhook's shape on its paths, the standard one elsewhere. */
export function gatewayResponseTemplate(type: GatewayResponseType): string {
  const response = gatewayResponses[type];
  const standard = gatewayResponseBody(response.standard, 'standard');
  if (leadPaths.length === 0) return standard;
  const test = leadPaths.map((path) => `$context.resourcePath == "${path}"`).join(' || ');
  return `#if(${test})${gatewayResponseBody(response.lead, 'lead')}#else${standard}#end`;
}
