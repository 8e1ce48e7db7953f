import type { Actor } from '../domain/model';

/**
 * The one update expression of a prospect record: every write raises `version` and `updated_at`
 * (undo and the change log condition on the version), stamps the `actor` who made it (the event
 * built from the change stream names it), sets the given attributes, and adds or removes tags in
 * the `tag_ids` string set.
 */
export type ProspectChange = {
  /** Attribute name → new value (null clears it). */
  set: Record<string, string | null>;
  addTags?: readonly string[];
  removeTags?: readonly string[];
  actor: Actor;
  now: string;
};

export type UpdateParts = {
  UpdateExpression: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues: Record<string, unknown>;
};

export function prospectUpdate(change: ProspectChange, conditionValues: Record<string, unknown> = {}): UpdateParts {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {
    ':now': change.now,
    ':one': 1,
    ':actor': change.actor,
    ...conditionValues,
  };
  const sets = ['updated_at = :now', 'version = version + :one', 'actor = :actor'];
  Object.entries(change.set).forEach(([attribute, value], index) => {
    names[`#f${index}`] = attribute;
    values[`:f${index}`] = value;
    sets.push(`#f${index} = :f${index}`);
  });
  let expression = `SET ${sets.join(', ')}`;
  if (change.addTags?.length) {
    expression += ' ADD tag_ids :added';
    values[':added'] = new Set(change.addTags);
  }
  if (change.removeTags?.length) {
    expression += ' DELETE tag_ids :removed';
    values[':removed'] = new Set(change.removeTags);
  }
  return {
    UpdateExpression: expression,
    ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
    ExpressionAttributeValues: values,
  };
}
