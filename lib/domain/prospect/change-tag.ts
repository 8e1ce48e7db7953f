import { type ApiKeyPrincipal, findByIdOrName } from '../model';
import type { Deps } from '../../deps';
import { NotFoundError, UnknownReferenceError } from '../errors';
import type { ConfigAndProspect } from '../../storage/prospects';
import type { Decision } from '../../storage/conditional-writes';
import { changeLogEntry, changeProspect, type ChangeStamp, type ProspectWrite } from './changelog';
import { messages } from '../../messages';

export type TagRequest = { action: 'add' | 'remove'; tag: string };

export type TagOutcome = {
  outcome: 'added' | 'already_present' | 'removed' | 'absent';
  tag: { id: string; name: string };
};

/** The change a tag call writes: the tag added or removed and its log entry. */
export type TagChange = ProspectWrite<TagOutcome>;

/**
 * Add or remove a tag (docs/api.md#add-a-tag, docs/api.md#remove-a-tag): the tag's id or exact name in, what
 * happened out (`changeProspect`, deciding with `decideTagChange`).
 */
export function changeTag(
  deps: Deps,
  principal: ApiKeyPrincipal,
  prospectId: string,
  request: TagRequest,
): Promise<TagOutcome> {
  return changeProspect(deps, principal, prospectId, (snapshot, stamp) => decideTagChange(snapshot, request, stamp));
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
      set: {},
      ...(adding ? { addTags: [tag.id] } : { removeTags: [tag.id] }),
      entries: [entry],
      expectedVersion: prospect.version,
      now: stamp.now,
      answer: { outcome: adding ? 'added' : 'removed', tag: view },
    },
  };
}
