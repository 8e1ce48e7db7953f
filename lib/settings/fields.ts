import type { Deps } from '../storage/client';
import { newAuditEntry, type ActingMemberId } from '../storage/audit-log';
import { partsOf } from '../storage/config-edits';
import type { FieldDefinition } from '../domain/model';
import {
  fieldNamed,
  fieldView,
  withChangedField,
  withDeletedField,
  withNewField,
  type FieldChangeInput,
  type NewFieldInput,
} from '../domain/fields/field-definitions';
import { messages } from '../messages';
import { checkedId } from './admin-input';
import { editConfig } from './config-edits';

/*
 * A workspace's custom field definitions (docs/api.md#custom-fields): each change is one conditional edit of the
 * configuration item with its audit entry in the same transaction (lib/settings/config-edits.ts), decided by the
 * rules of lib/domain/fields/field-definitions.ts on the configuration read, again after a lost race.
 */

type FieldInput<T> = { workspaceId: string; actingMemberId: ActingMemberId } & T;

/** `POST /fields`: a new definition, last of the list; its key never used in the workspace, even by a deleted field. */
export async function createField(deps: Deps, input: FieldInput<{ field: NewFieldInput }>): Promise<FieldDefinition> {
  const workspaceId = checkedId('workspace', input.workspaceId);
  let created: FieldDefinition | undefined;
  await editConfig(deps, workspaceId, (config) => {
    const fields = withNewField(config, input.field);
    created = fields.at(-1) as FieldDefinition;
    const entry = newAuditEntry(deps.clock(), {
      workspaceId,
      memberId: input.actingMemberId,
      action: 'field.created',
      targetId: created.key,
      summary: messages.audit.fieldCreated(created.label, created.key),
    });
    return { parts: { ...partsOf(config), fields }, companions: [{ kind: 'audit', entry }] };
  });
  return fieldView(created as FieldDefinition);
}

/** What a change changed, in the audit summary's words, in the order of the definition. */
const changedParts = (before: FieldDefinition, after: FieldDefinition): string =>
  (['label', 'options', 'aliases', 'update'] as const)
    .filter((part) => JSON.stringify(before[part]) !== JSON.stringify(after[part]))
    .map((part) => messages.audit.fieldParts[part])
    .join(', ');

/** `PATCH /fields/{key}`: the definition changed; a change that changes nothing writes nothing and answers it. */
export async function changeField(
  deps: Deps,
  input: FieldInput<{ key: string; change: FieldChangeInput }>,
): Promise<FieldDefinition> {
  const workspaceId = checkedId('workspace', input.workspaceId);
  let answered: FieldDefinition | undefined;
  await editConfig(deps, workspaceId, (config) => {
    const before = fieldNamed(config.fields, input.key);
    const changed = withChangedField(config, input.key, input.change);
    if ('unchanged' in changed) {
      answered = changed.unchanged;
      return 'unchanged';
    }
    answered = changed.definition;
    const entry = newAuditEntry(deps.clock(), {
      workspaceId,
      memberId: input.actingMemberId,
      action: 'field.changed',
      targetId: input.key,
      summary: messages.audit.fieldChanged(
        changed.definition.label,
        input.key,
        changedParts(before, changed.definition),
      ),
    });
    return { parts: { ...partsOf(config), fields: changed.fields }, companions: [{ kind: 'audit', entry }] };
  });
  return fieldView(answered as FieldDefinition);
}

/**
 * `DELETE /fields/{key}`: the definition replaced by its tombstone (docs/adr/0016-custom-fields-storage.md): from this
 * answer on, its values are nowhere shown nor accepted, and its key stays taken.
 */
export async function deleteField(
  deps: Deps,
  input: FieldInput<{ key: string }>,
): Promise<{ key: string; deleted: true }> {
  const workspaceId = checkedId('workspace', input.workspaceId);
  await editConfig(deps, workspaceId, (config) => {
    const { label } = fieldNamed(config.fields, input.key);
    const fields = withDeletedField(config, input.key, deps.clock().toISOString());
    const entry = newAuditEntry(deps.clock(), {
      workspaceId,
      memberId: input.actingMemberId,
      action: 'field.deleted',
      targetId: input.key,
      summary: messages.audit.fieldDeleted(label, input.key),
    });
    return { parts: { ...partsOf(config), fields }, companions: [{ kind: 'audit', entry }] };
  });
  return { key: input.key, deleted: true };
}
