import { useState } from 'preact/hooks';
import { api } from './api';
import type { components } from './settings-api';
import type { Workspace } from './session';
import { texts } from './texts';
import type { Named } from './workspace-names';

type Prospect = components['schemas']['Prospect'];

/** The most prospects one list call names (`GET …/prospects?id=…`, docs/api.md#lists-of-prospects). */
const idsPerCall = 100;

/**
 * What a prospect is called on the page: first and last name, else its e-mail, its phone, its social profile, in that
 * order (a lead may bring any one of them alone).
 */
export function prospectName(prospect: Prospect): string {
  const name = [prospect.first_name, prospect.last_name].filter(Boolean).join(' ');
  return name || prospect.email || prospect.phone || prospect.social_url || texts.prospects.unnamed;
}

/**
 * The names of the prospects a screen shows by id (a key's changes, the audit log): `learn(ids)` reads the ids not yet
 * known with one list call per 100 (`GET …/prospects?id=a&id=b…`), so a screen asks once per page of its rows, never
 * once per row; `name(id)` is then the prospect's name, or, for an id the answer does not hold (the prospect since
 * deleted), a fallback in words with the id to copy, as `WorkspaceNames` does for a deleted tag; `found(id)` says
 * whether the prospect exists. An id not read (the API refused the list: the screen shows its own refusals) is shown
 * as it is. `known` names prospects the screen already has (the record shown), which cost no call.
 */
export function useProspectNames(workspace: Workspace, known: readonly Prospect[] = []) {
  const [names, setNames] = useState<ReadonlyMap<string, string | null>>(
    () => new Map(known.map((prospect) => [prospect.id, prospectName(prospect)])),
  );

  const learn = async (ids: readonly string[]): Promise<void> => {
    const asked = [...new Set(ids)].filter((id) => !names.has(id));
    const learnt = new Map<string, string | null>();
    for (let start = 0; start < asked.length; start += idsPerCall) {
      const some = asked.slice(start, start + idsPerCall);
      const { data } = await api.GET('/workspaces/{workspace_id}/prospects', {
        params: { path: { workspace_id: workspace.id }, query: { id: some, limit: String(idsPerCall) } },
      });
      if (!data) continue;
      const listed = new Map(data.prospects.map((prospect) => [prospect.id, prospectName(prospect)]));
      for (const id of some) learnt.set(id, listed.get(id) ?? null);
    }
    if (learnt.size > 0) setNames((before) => new Map([...before, ...learnt]));
  };

  const name = (id: string): Named => {
    const found = names.get(id);
    if (found === undefined) return { text: id };
    return found === null ? { ...texts.names.missingProspect, missingId: id } : { text: found };
  };

  return { learn, name, found: (id: string) => typeof names.get(id) === 'string' };
}

export type ProspectNames = ReturnType<typeof useProspectNames>;
