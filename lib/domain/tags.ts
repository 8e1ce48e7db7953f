import { messages } from '../messages';
import type { Tag } from './model';

export type ResolvedTags = { applied: { id: string; name: string }[]; warnings: string[] };

/** Tags are referenced by id only on the lead webhook; the API never creates a tag. */
export function resolveTagIds(tags: readonly Tag[], requested: readonly string[]): ResolvedTags {
  const applied: { id: string; name: string }[] = [];
  const warnings: string[] = [];
  for (const id of requested) {
    const tag = tags.find((candidate) => candidate.id === id.toLowerCase());
    if (!tag) warnings.push(messages.lead.unknownTag(id));
    else if (!applied.some((entry) => entry.id === tag.id)) applied.push({ id: tag.id, name: tag.name });
  }
  return { applied, warnings };
}
