import { requireWorkspace } from '../../../lib/settings/admin-input';
import { showProspect, type ProspectDetails } from '../../../lib/settings/prospects';
import { reindexProspects } from '../storage/list-index';
import { defineCommand, idOption, workspaceOption } from '../command';
import { changeLogTable } from '../changelog-table';
import { fields, fieldValueText, shown } from '../render';

export const prospectShowCommand = defineCommand({
  words: ['prospect', 'show'],
  summary: 'affiche un prospect avec ses tags, ses notes et son journal des modifications',
  options: { workspace: workspaceOption, id: idOption('required', 'prospect') },
  async run(target, options) {
    const details = await showProspect(target.deps, { workspaceId: options.workspace, prospectId: options.id });
    return { document: details, text: prospectText(details) };
  },
});

/**
 * docs/deploy.md#new-indexes: the lists' index keys, and the schedules of follow-ups still ahead, on the prospects
 * written before them.
 */
export const prospectReindexCommand = defineCommand({
  words: ['prospect', 'reindex'],
  summary:
    'écrit les clés des index des listes, et l’échéance des rappels à venir, sur les prospects d’un espace écrits avant elles',
  options: { workspace: workspaceOption },
  async run(target, options) {
    await requireWorkspace(target.deps, options.workspace);
    const done = await reindexProspects(target.deps, options.workspace);
    return {
      document: done,
      text: `${done.walked} prospect(s) parcouru(s), ${done.written} mis à jour (clés des index des listes), ${done.scheduled} rappel(s) à venir mis en attente.`,
    };
  },
});

function prospectText({ prospect, tags, notes, changelog }: ProspectDetails): string {
  const record = fields([
    ['Identifiant', prospect.id],
    ['Prénom', prospect.first_name],
    ['Nom', prospect.last_name],
    ['E-mail', prospect.email],
    ['Téléphone', prospect.phone],
    ['Profil social', prospect.social_url],
    ['Source', prospect.source],
    ['Pipeline', prospect.pipeline_id],
    ['Étape', prospect.stage_id],
    ['Setter', prospect.setter_id],
    ['Closer', prospect.closer_id],
    ['Prochain rappel', prospect.next_follow_up_at],
    ['Tags', tags.map((tag) => tag.name ?? tag.id).join(', ')],
    // The custom fields, by key (docs/api.md#custom-fields).
    ...Object.entries(prospect.fields).map(([key, value]) => [`Champ ${key}`, fieldValueText(value)] as const),
    ['Version', prospect.version],
    ['Créé le', prospect.created_at],
    ['Modifié le', prospect.updated_at],
  ]);
  const noteBlocks = notes.map((note) => `[${note.date}] (reçue le ${note.created_at}, ${note.id})\n${note.content}`);
  const log = changeLogTable(changelog, { withProspect: false });
  return [
    record,
    `Notes (${notes.length})`,
    noteBlocks.length > 0 ? noteBlocks.join('\n\n') : shown(null),
    "Modifications par l'API",
    log,
  ].join('\n\n');
}
