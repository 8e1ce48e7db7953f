import { changeLogEntries } from '../use-cases/changelog';
import { undoChangeLogEntry } from '../../../lib/settings/changelog-undo';
import { defineCommand, idOption, workspaceOption } from '../command';
import { changeLogTable } from '../changelog-table';
import { fields, fieldValueText, shown } from '../render';

export const changelogListCommand = defineCommand({
  words: ['changelog', 'list'],
  summary: "liste les modifications faites par l'API sur un prospect ou avec une clé, les plus récentes d'abord",
  options: {
    workspace: workspaceOption,
    prospect: idOption('optional', 'prospect'),
    key: idOption('optional', 'apiKey'),
  },
  async run(target, options) {
    const document = await changeLogEntries(target.deps, {
      workspaceId: options.workspace,
      prospectId: options.prospect,
      keyId: options.key,
    });
    return { document, text: changeLogTable(document.entries, { withProspect: true }) };
  },
});

export const changelogUndoCommand = defineCommand({
  words: ['changelog', 'undo'],
  summary: "annule une modification si le prospect n'a pas changé depuis (sinon code 2, rien ne change)",
  options: { workspace: workspaceOption, entry: idOption('required', 'changeLogEntry') },
  async run(target, options) {
    const document = await undoChangeLogEntry(target.deps, { workspaceId: options.workspace, entryId: options.entry });
    const text = [
      `Modification ${document.entry.id} annulée (${document.entry.field} : ${shown(fieldValueText(document.entry.after))} → ${shown(fieldValueText(document.entry.before))}).`,
      fields([
        ['Prospect', document.prospect.id],
        ['Pipeline', document.prospect.pipeline_id],
        ['Étape', document.prospect.stage_id],
        ['Setter', document.prospect.setter_id],
        ['Closer', document.prospect.closer_id],
        ['Prochain rappel', document.prospect.next_follow_up_at],
        ...Object.entries(document.prospect.fields).map(
          ([key, value]) => [`Champ ${key}`, fieldValueText(value)] as const,
        ),
        ['Version', document.prospect.version],
      ]),
    ].join('\n\n');
    return { document, text };
  },
});
