import { readFile } from 'node:fs/promises';
import { AdminInputError } from '../../../lib/settings/admin-input';
import { seedWorkspace, type SeedOutput } from '../../seed/seed';
import { webhookUrl } from '../../../lib/settings/webhook-status';
import { defineCommand } from '../command';
import { table, type Shown } from '../render';

export const seedCommand = defineCommand({
  words: ['seed'],
  summary: 'crée un espace de travail depuis une description JSON et affiche chaque identifiant et secret',
  options: { file: 'required' },
  async run(target, { file }) {
    const output = await seedWorkspace(target.deps, await readDescription(file));
    return { document: output, text: seedText(output, target.publicBaseUrl) };
  },
});

async function readDescription(file: string): Promise<unknown> {
  let content: string;
  try {
    content = await readFile(file, 'utf8');
  } catch (error) {
    throw new AdminInputError(`Impossible de lire le fichier ${file} : ${(error as Error).message}`, { cause: error });
  }
  try {
    return JSON.parse(content);
  } catch (error) {
    throw new AdminInputError(`Le fichier ${file} n'est pas un JSON valide : ${(error as Error).message}`, {
      cause: error,
    });
  }
}

function seedText(output: SeedOutput, publicBaseUrl: string | undefined): string {
  const rows: Shown[][] = [['espace de travail', '', output.workspace_id, '']];
  for (const [label, id] of Object.entries(output.members)) rows.push(['membre', label, id, '']);
  for (const [label, id] of Object.entries(output.tags)) rows.push(['tag', label, id, '']);
  for (const [label, pipeline] of Object.entries(output.pipelines)) {
    rows.push(['pipeline de vente', label, pipeline.id, '']);
    for (const [stage, id] of Object.entries(pipeline.stages)) rows.push(['  étape', stage, id, '']);
  }
  for (const [label, pipeline] of Object.entries(output.recruitment_pipelines)) {
    rows.push(['pipeline de recrutement', label, pipeline.id, '']);
    for (const [column, id] of Object.entries(pipeline.columns)) rows.push(['  colonne', column, id, '']);
  }
  for (const [label, key] of Object.entries(output.api_keys)) rows.push(["clé d'API", label, key.id, key.secret]);
  if (output.webhook) rows.push(['webhook', '', output.webhook.endpoint_id, output.webhook.token]);
  for (const [label, id] of Object.entries(output.prospects)) rows.push(['prospect', label, id, '']);
  const lines = [table(['Élément', 'Clé', 'Identifiant', 'Secret'], rows, '')];
  if (output.webhook && publicBaseUrl)
    lines.push(`URL du webhook : ${webhookUrl(publicBaseUrl, output.webhook.endpoint_id)}`);
  lines.push("Les secrets ne sont affichés qu'une fois : conservez-les maintenant.");
  return lines.join('\n\n');
}
