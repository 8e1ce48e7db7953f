import { eraseRecordOf } from '../../../lib/domain/erasure/erase-record';
import { commandLine } from '../../../lib/storage/audit-log';
import { defineCommand, idOption, onRecord, workspaceOption } from '../command';
import { fields } from '../render';

/*
 * docs/api.md#erasure-export-and-retention, docs/admin.md: the erasure of a person's record by the command line, the
 * erase routes' use case by no member (`member_id` null in the audit entry); it prints the routes' document.
 */

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
