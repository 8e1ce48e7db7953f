import { showCandidate } from '../use-cases/candidates';
import { requireWorkspace } from '../../../lib/settings/admin-input';
import { reindexCandidates } from '../storage/candidate-index';
import { defineCommand, idOption, workspaceOption } from '../command';
import { fields, shown } from '../render';

export const candidateShowCommand = defineCommand({
  words: ['candidate', 'show'],
  summary: 'affiche un candidat avec ses notes (réponses de formulaire)',
  options: { workspace: workspaceOption, id: idOption('required', 'candidate') },
  async run(target, options) {
    const document = await showCandidate(target.deps, { workspaceId: options.workspace, candidateId: options.id });
    const { candidate, notes } = document;
    const text = [
      fields([
        ['Identifiant', candidate.id],
        ['Prénom', candidate.first_name],
        ['Nom', candidate.last_name],
        ['E-mail', candidate.email],
        ['Téléphone', candidate.phone],
        ['Poste', candidate.position],
        ['Source', candidate.source],
        ['Pipeline', candidate.pipeline_id],
        ['Colonne', candidate.column_id],
      ]),
      `Notes (${notes.length})`,
      notes.length > 0
        ? notes.map((note) => `[${note.created_at}] (${note.id})\n${note.content}`).join('\n\n')
        : shown(null),
    ].join('\n\n');
    return { document, text };
  },
});

/**
 * docs/deploy.md#new-indexes: the candidates written before the index of their last write (the retention's) given its
 * key, of one workspace or of every one; run again, nothing is written.
 */
export const candidateReindexCommand = defineCommand({
  words: ['candidate', 'reindex'],
  summary:
    'écrit la date de dernière candidature et la clé d’index de la durée de conservation sur les candidats écrits avant elles',
  options: { workspace: idOption('optional', 'workspace') },
  async run(target, options) {
    if (options.workspace) await requireWorkspace(target.deps, options.workspace);
    const done = await reindexCandidates(target.deps, options.workspace);
    return {
      document: done,
      text: `${done.walked} candidat(s) parcouru(s), ${done.written} mis à jour (dernière candidature et clé d’index).`,
    };
  },
});
