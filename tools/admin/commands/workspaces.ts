import cliProgress from 'cli-progress';
import { listWorkspaces, setWorkspace } from '../use-cases/workspaces';
import { showWorkspace, type WorkspaceView } from '../../../lib/settings/workspace-view';
import type { IndexProgress } from '../storage/phone-index';
import { defineCommand, workspaceOption } from '../command';
import { fields, table } from '../render';
import { messages } from '../../../lib/messages';

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

const workspaceFields = (workspace: WorkspaceView): [string, string][] => [
  ['Identifiant', workspace.id],
  ['Nom', workspace.name],
  ['Comparaison des téléphones', phoneMatchingText[workspace.phone_matching]],
  ['Région des téléphones', workspace.phone_region],
  ['Fuseau horaire', workspace.time_zone],
  ['Conservation des données', messages.audit.retention(workspace.retention_months)],
  ['Créé le', workspace.created_at],
];

/**
 * The indexing's progress bar, on stderr, only for a person watching a terminal without --json (so
 * neither a pipe, a script nor a JSON reader ever sees it: `Target.interactive`).
 */
function terminalProgress(interactive: boolean): { progress: IndexProgress | undefined; stop: () => void } {
  if (!interactive) return { progress: undefined, stop: () => {} };
  const bar = new cliProgress.SingleBar(
    { stream: process.stderr, format: 'Indexation des téléphones [{bar}] {value}/{total} numéros', hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    progress: (done, total) => {
      if (!started) {
        started = true;
        bar.start(total, done);
      } else {
        bar.setTotal(total);
        bar.update(done);
      }
    },
    stop: () => {
      if (started) bar.stop();
    },
  };
}

const workspaceShow = defineCommand({
  words: ['workspace', 'show'],
  summary:
    'affiche un espace de travail, la comparaison des téléphones de son webhook, son fuseau horaire et la conservation de ses données',
  options: { workspace: workspaceOption },
  async run(target, options) {
    const workspace = await showWorkspace(target.deps, options.workspace);
    return {
      document: workspace,
      text: fields(workspaceFields(workspace)),
    };
  },
});

const workspaceSet = defineCommand({
  words: ['workspace', 'set'],
  summary:
    'change la comparaison des téléphones (exact ou e164), leur région (code de pays), le fuseau horaire (nom IANA) ou la conservation des données (mois, ou none) ; passer en e164 indexe les prospects',
  options: {
    workspace: workspaceOption,
    'phone-matching': 'optional',
    'phone-region': 'optional',
    'time-zone': 'optional',
    'retention-months': 'optional',
  },
  async run(target, options) {
    const bar = terminalProgress(target.interactive);
    let workspace;
    try {
      workspace = await setWorkspace(
        target.deps,
        options.workspace,
        {
          phoneMatching: options['phone-matching'],
          phoneRegion: options['phone-region'],
          timeZone: options['time-zone'],
          retentionMonths: options['retention-months'],
        },
        bar.progress,
      );
    } finally {
      bar.stop();
    }
    const shared = workspace.shared_numbers;
    const sharedText =
      shared === undefined
        ? ''
        : shared.length === 0
          ? '\n\nProspects indexés : aucun numéro partagé.'
          : `\n\nNuméros partagés (un seul prospect garde chacun pour la comparaison, le plus ancien d'ordinaire) :\n${table(
              ['Numéro', 'Gardé par', 'Autres prospects'],
              shared.map((number) => [number.phone_e164, number.kept, number.others.join(', ')]),
              '',
            )}`;
    return { document: workspace, text: `${fields(workspaceFields(workspace))}${sharedText}` };
  },
});

export const workspaceCommands = [workspaceList, workspaceShow, workspaceSet];
