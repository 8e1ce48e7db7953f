import { eraseRecordOf } from '../../../lib/domain/erasure/erase-record';
import { exportPerson } from '../../../lib/domain/export/person-exports';
import { commandLine } from '../../../lib/storage/audit-log';
import { defineCommand, idOption, onRecord, workspaceOption } from '../command';
import { fields } from '../render';

/*
 * docs/api.md#erasure-export-and-retention, docs/admin.md: a person's rights by the command line, the routes' use cases
 * by no member (`member_id` null in the audit entry), printing the routes' documents: everything kept about a prospect
 * or a candidate (its export, audited), and its erasure.
 */

const exportCommand = (kind: 'prospect' | 'candidate', summary: string) =>
  defineCommand({
    words: [kind, 'export'],
    summary,
    options: { workspace: workspaceOption, id: idOption('required', kind) },
    async run(target, options) {
      const document = await onRecord(target, options.workspace, { kind, id: options.id }, () =>
        exportPerson(target.deps, {
          workspaceId: options.workspace,
          kind,
          recordId: options.id,
          memberId: commandLine,
        }),
      );
      return { document, text: JSON.stringify(document, null, 2) };
    },
  });

export const prospectExportCommand = exportCommand(
  'prospect',
  'exporte en un document JSON tout ce qui est gardé sur un prospect (droit d’accès)',
);
export const candidateExportCommand = exportCommand(
  'candidate',
  'exporte en un document JSON tout ce qui est gardé sur un candidat (droit d’accès)',
);

const erasureCommand = (kind: 'prospect' | 'candidate', summary: string) =>
  defineCommand({
    words: [kind, 'erase'],
    summary,
    options: { workspace: workspaceOption, id: idOption('required', kind) },
    async run(target, options) {
      const document = await onRecord(target, options.workspace, { kind, id: options.id }, () =>
        eraseRecordOf(target.deps, {
          workspaceId: options.workspace,
          kind,
          recordId: options.id,
          memberId: commandLine,
        }),
      );
      return {
        document,
        text: fields([
          ['Identifiant', document.id],
          ['Effacé le', `${document.erased_at} (ses copies dans les 5 minutes)`],
        ]),
      };
    },
  });

export const prospectEraseCommand = erasureCommand(
  'prospect',
  'efface un prospect, ses notes, son journal et ses copies (droit à l’effacement)',
);
export const candidateEraseCommand = erasureCommand(
  'candidate',
  'efface un candidat, ses notes et ses copies (droit à l’effacement)',
);
