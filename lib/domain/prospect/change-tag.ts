import {
  type ApiKeyPrincipal,
  type ChangeLogEntry,
  findByIdOrName,
  NotFoundError,
  UnknownReferenceError,
} from '../model';
import type { Deps } from '../../storage/client';
import type { ConfigAndProspect } from '../../storage/prospects';
import type { Decision } from '../../storage/conditional-writes';
import { changeLogEntry, type ChangeStamp, changeProspectOnVersion } from './logged-change';
import { messages } from '../../messages';

export type TagRequest = { action: 'add' | 'remove'; tag: string };

export type TagOutcome = {
  outcome: 'added' | 'already_present' | 'removed' | 'absent';
  tag: { id: string; name: string };
};

/** The change a tag call writes: the tag added or removed and its log entry, on the version read. */
export type TagChange = {
  action: 'add' | 'remove';
  tagId: string;
  entry: ChangeLogEntry;
  expectedVersion: number;
  answer: TagOutcome;
};

/**
 * Add or remove a tag (docs/api.md#add-a-tag, docs/api.md#remove-a-tag). Input: the tag's id or
 * exact name. Output: what happened.
 * 1. Read the prospect and the workspace's tags in one eventually consistent BatchGetItem; a later
 *    round reads the prospect only, strongly consistently (`readConfigAndProspect`).
 * 2. Decide (`decideTagChange`): 404, 422 unknown tag, already present (add) or absent (remove),
 *    or the change; an answer that writes nothing comes from a strongly consistent read.
 * 3. Write the change and its log entry in one transaction conditional on the version read, so that
 *    of concurrent identical calls exactly one changes the record and the others read again.
 */
export async function changeTag(
  deps: Deps,
  principal: ApiKeyPrincipal,
  prospectId: string,
  request: TagRequest,
): Promise<TagOutcome> {
  return changeProspectOnVersion(deps, principal, prospectId, {
    decide: (snapshot, stamp) => decideTagChange(snapshot, request, stamp),
    versionedWrite: (change: TagChange) => ({
      set: {},
      ...(change.action === 'add' ? { addTags: [change.tagId] } : { removeTags: [change.tagId] }),
      now: change.entry.at,
      entries: [change.entry],
      expectedVersion: change.expectedVersion,
      answer: change.answer,
    }),
  });
}

/** What a tag call does to the prospect read: refused (404, 422), nothing to do, or the change. */
export function decideTagChange(
  { config, prospect }: ConfigAndProspect,
  request: TagRequest,
  stamp: ChangeStamp,
): Decision<TagChange, TagOutcome> {
  if (!prospect) return { kind: 'refuse', refusal: new NotFoundError(messages.prospect.notFound) };
  const tag = findByIdOrName(config.tags, request.tag);
  if (!tag) return { kind: 'refuse', refusal: new UnknownReferenceError(messages.prospect.unknownTag(request.tag)) };
  const view = { id: tag.id, name: tag.name };
  const present = prospect.tag_ids?.has(tag.id) ?? false;
  const adding = request.action === 'add';
  if (adding === present)
    return { kind: 'answer', answer: { outcome: adding ? 'already_present' : 'absent', tag: view } };
  const entry = changeLogEntry({
    id: stamp.newId(),
    workspaceId: prospect.workspace_id,
    prospectId: prospect.id,
    keyId: stamp.keyId,
    at: stamp.now,
    prospectVersion: prospect.version + 1,
    change: { field: 'tags', before: adding ? null : tag.id, after: adding ? tag.id : null },
  });
  return {
    kind: 'write',
    write: {
      action: request.action,
      tagId: tag.id,
      entry,
      expectedVersion: prospect.version,
      answer: { outcome: adding ? 'added' : 'removed', tag: view },
    },
  };
}
