import { listWorkspaces, showWorkspace } from '../../../lib/admin/workspaces';
import { defineCommand, workspaceOption } from '../command';
import { fields, table } from '../render';

/** How the readable output names a phone matching mode. */
const phoneMatchingText = { exact: 'exacte (le téléphone tel qu’envoyé)', e164: 'E.164' } as const;

const workspaceList = defineCommand({
  words: ['workspace', 'list'],
  summary: 'liste les espaces de travail, du plus ancien au plus récent',
  options: {},
  async run(target) {
    const workspaces = await listWorkspaces(target.deps);
    return {
      document: { workspaces },
      text: table(
        ['Identifiant', 'Nom', 'Créé le'],
        workspaces.map((workspace) => [workspace.id, workspace.name, workspace.created_at]),
        'Aucun espace de travail.',
      ),
    };
  },
});

const workspaceShow = defineCommand({
  words: ['workspace', 'show'],
  summary: 'affiche un espace de travail et la comparaison des téléphones de son webhook',
  options: { workspace: workspaceOption },
  async run(target, options) {
    const workspace = await showWorkspace(target.deps, options.workspace);
    return {
      document: workspace,
      text: fields([
        ['Identifiant', workspace.id],
        ['Nom', workspace.name],
        ['Comparaison des téléphones', phoneMatchingText[workspace.phone_matching]],
        ['Région des téléphones', workspace.phone_region],
        ['Créé le', workspace.created_at],
      ]),
    };
  },
});

export const workspaceCommands = [workspaceList, workspaceShow];
