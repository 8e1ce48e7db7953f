import type { SeedOutput } from '../../lib/admin/seed';
import { webhookUrl } from '../../lib/admin/webhooks';

/** The text `npm start` prints once after seeding the demo workspace: its secrets are kept nowhere else. */
export function demoBanner(options: { apiUrl: string; publicBaseUrl: string; seed: SeedOutput }): string {
  const { apiUrl, publicBaseUrl, seed } = options;
  const apiKey = Object.values(seed.api_keys)[0]?.secret;
  const lines = ['', 'Espace de démonstration « Démo » créé. Notez ces secrets : ils ne seront plus affichés.'];
  const examples: string[] = [];
  lines.push(`  Espace de travail     : ${seed.workspace_id}`);
  lines.push(`  URL de l'API          : ${apiUrl}`);
  if (apiKey !== undefined) {
    lines.push(`  Clé d'API « Démo »    : ${apiKey}`);
    examples.push(`  curl -s ${apiUrl}/pipelines -H 'Authorization: Bearer ${apiKey}'`);
  }
  if (seed.webhook !== null) {
    const { endpoint_id: endpointId, token } = seed.webhook;
    const leadUrl = webhookUrl(publicBaseUrl, endpointId);
    const lead = { first_name: 'Nina', last_name: 'Roux', email: 'nina.roux@exemple.test', source: 'Site web' };
    lines.push(`  Webhook prospects     : ${leadUrl}`);
    lines.push(`  Webhook recrutement   : ${recruitmentWebhookUrl(publicBaseUrl, endpointId)}`);
    lines.push(`  Jeton du webhook      : ${token}`);
    examples.push(
      `  curl -s -X POST '${leadUrl}' -H 'Authorization: Bearer ${token}' ` +
        `-H 'Content-Type: application/json' -d '${JSON.stringify(lead)}'`,
    );
  }
  // Every admin command names its workspace: this one, printed above.
  examples.push(`  npm run --silent admin -- workspace show --workspace ${seed.workspace_id}`);
  lines.push('', 'Exemples :', ...examples);
  return lines.join('\n');
}

/** The recruitment webhook shares the lead webhook's endpoint and token (docs/api.md#recruitment-webhook). */
const recruitmentWebhookUrl = (publicBaseUrl: string, endpointId: string): string =>
  `${publicBaseUrl.replace(/\/+$/, '')}/webhooks/recruitment?endpoint_id=${endpointId}`;
