import type { SeedOutput } from '../../lib/admin/seed';
import { webhookUrl } from '../../lib/admin/webhooks';

/** The text `npm start` prints once after seeding the demo workspace: its secrets are kept nowhere else. */
export function demoBanner(options: {
  apiUrl: string;
  publicBaseUrl: string;
  seed: SeedOutput;
  /** The demo workspace's admin, who signs in to the settings API. */
  admin?: { email: string; password: string } | undefined;
}): string {
  const { apiUrl, publicBaseUrl, seed, admin } = options;
  const apiKey = Object.values(seed.api_keys)[0]?.secret;
  const lines = ['', 'Espace de démonstration « Démo » créé. Notez ces secrets : ils ne seront plus affichés.'];
  lines.push(`  Espace de travail     : ${seed.workspace_id}`, `  URL de l'API          : ${apiUrl}`);
  const examples: string[] = [];
  if (apiKey !== undefined) {
    lines.push(`  Clé d'API « Démo »    : ${apiKey}`);
    examples.push(`  curl -s ${apiUrl}/pipelines -H 'Authorization: Bearer ${apiKey}'`);
  }
  if (seed.webhook !== null) {
    const { endpoint_id: endpointId, token } = seed.webhook;
    const leadUrl = webhookUrl(publicBaseUrl, endpointId);
    const lead = { first_name: 'Nina', last_name: 'Roux', email: 'nina.roux@exemple.test', source: 'Site web' };
    // The recruitment webhook shares the lead webhook's endpoint and token (docs/api.md#recruitment-webhook).
    const recruitmentUrl = `${publicBaseUrl.replace(/\/+$/, '')}/webhooks/recruitment?endpoint_id=${endpointId}`;
    lines.push(`  Webhook prospects     : ${leadUrl}`, `  Webhook recrutement   : ${recruitmentUrl}`);
    lines.push(`  Jeton du webhook      : ${token}`);
    examples.push(
      `  curl -s -X POST '${leadUrl}' -H 'Authorization: Bearer ${token}' ` +
        `-H 'Content-Type: application/json' -d '${JSON.stringify(lead)}'`,
    );
  }
  if (admin !== undefined) {
    lines.push(`  Administrateur        : ${admin.email}`, `  Mot de passe          : ${admin.password}`);
    const credentials = JSON.stringify({ email: admin.email, password: admin.password });
    examples.push(`  curl -s -X POST ${apiUrl}/session -H 'Content-Type: application/json' -d '${credentials}'`);
  }
  // Every admin command names its workspace: this one, printed above.
  examples.push(`  npm run --silent admin -- workspace show --workspace ${seed.workspace_id}`);
  lines.push('', 'Exemples :', ...examples);
  return lines.join('\n');
}
