import { addColumn, addSalesPipeline, addStage, addTag } from '../../../lib/settings/config-edits';
import { addMember, readRole } from '../../../lib/settings/members';
import { AdminInputError } from '../../../lib/settings/admin-input';
import { commandLine } from '../../../lib/storage/audit-log';
import { messages } from '../../../lib/messages';
import { defineCommand, idOption, workspaceOption } from '../command';
import { fields } from '../render';
import { identityProviderOf } from '../target';

/** The settings screen's additions: each one edit of the configuration item, conditional on its version. */
const tagAdd = defineCommand({
  words: ['tag', 'add'],
  summary: "ajoute un tag à l'espace (deux tags ne portent pas le même nom, casse ignorée)",
  options: { workspace: workspaceOption, name: 'required' },
  async run(target, options) {
    const tag = await addTag(target.deps, { workspaceId: options.workspace, name: options.name });
    return {
      document: tag,
      text: fields([
        ['Identifiant', tag.id],
        ['Nom', tag.name],
      ]),
    };
  },
});

const memberAdd = defineCommand({
  words: ['member', 'add'],
  summary:
    "ajoute un membre qui se connecte avec son e-mail (rôle admin ou member) et l'invite, sauf une personne qui a déjà choisi son mot de passe (elle le garde) ; --password donne à une personne invitée un mot de passe définitif (fournisseur d'identité local seulement)",
  options: { workspace: workspaceOption, email: 'required', name: 'optional', role: 'required', password: 'optional' },
  async run(target, options) {
    const identity = await identityProviderOf(target);
    if (options.password !== undefined && !identity.answersDeliveredSecrets) {
      throw new AdminInputError(messages.members.passwordLocalOnly);
    }
    const member = await addMember(
      { ...target.deps, identity },
      {
        workspaceId: options.workspace,
        email: options.email,
        name: options.name,
        role: readRole(options.role),
        actingMemberId: commandLine,
        password: options.password,
      },
    );
    const document = {
      id: member.id,
      email: member.email,
      name: member.name,
      role: member.role,
      invited: member.invited,
    };
    return {
      document,
      text: fields([
        ['Identifiant', document.id],
        ['E-mail', document.email],
        ['Nom', document.name],
        ['Rôle', document.role],
        ['Invitation', document.invited ? messages.members.invitationMade : messages.members.invitationNone],
      ]),
    };
  },
});

const pipelineAdd = defineCommand({
  words: ['pipeline', 'add'],
  summary:
    'ajoute un pipeline de vente actif, sans étape (« stage add » les ajoute) ; --default en fait le pipeline par défaut',
  options: { workspace: workspaceOption, name: 'required', default: 'flag' },
  async run(target, options) {
    const pipeline = await addSalesPipeline(target.deps, {
      workspaceId: options.workspace,
      name: options.name,
      isDefault: options.default,
    });
    return {
      document: pipeline,
      text: fields([
        ['Identifiant', pipeline.id],
        ['Nom', pipeline.name],
        ['Par défaut', pipeline.is_default],
        ['Actif', pipeline.active],
      ]),
    };
  },
});

const stageAdd = defineCommand({
  words: ['stage', 'add'],
  summary: "ajoute une étape à la fin d'un pipeline de vente (type libre, par exemple « Follow up »)",
  options: {
    workspace: workspaceOption,
    pipeline: idOption('required', 'salesPipeline'),
    name: 'required',
    type: 'required',
  },
  async run(target, options) {
    const stage = await addStage(target.deps, {
      workspaceId: options.workspace,
      pipelineId: options.pipeline,
      name: options.name,
      type: options.type,
    });
    return {
      document: stage,
      text: fields([
        ['Identifiant', stage.id],
        ['Nom', stage.name],
        ['Type', stage.type],
        ['Pipeline', stage.pipeline_id],
      ]),
    };
  },
});

const columnAdd = defineCommand({
  words: ['column', 'add'],
  summary: "ajoute une colonne à la fin d'un pipeline de recrutement",
  options: { workspace: workspaceOption, pipeline: idOption('required', 'recruitmentPipeline'), name: 'required' },
  async run(target, options) {
    const column = await addColumn(target.deps, {
      workspaceId: options.workspace,
      pipelineId: options.pipeline,
      name: options.name,
    });
    return {
      document: column,
      text: fields([
        ['Identifiant', column.id],
        ['Nom', column.name],
        ['Pipeline', column.pipeline_id],
      ]),
    };
  },
});

export const configCommands = [tagAdd, memberAdd, pipelineAdd, stageAdd, columnAdd];
