import { randomUUID } from 'node:crypto';
import { items, type CandidateItem } from '../../lib/storage/table-items';
import type { Candidate } from '../../lib/domain/model';

/** A candidate item as the storage builder makes it (its key in gsi5 with it), in the pipeline the test gives. */
export function aCandidateItem(
  workspaceId: string,
  pipelineId: string,
  fields: Partial<Candidate> = {},
): CandidateItem {
  const at = fields.created_at ?? new Date().toISOString();
  return items.candidate({
    id: randomUUID(),
    workspace_id: workspaceId,
    pipeline_id: pipelineId,
    column_id: randomUUID(),
    first_name: 'Zoé',
    last_name: 'Moreau',
    email: `${randomUUID()}@exemple.test`,
    phone: null,
    position: null,
    source: 'Typeform',
    version: 1,
    created_at: at,
    updated_at: at,
    actor: { kind: 'webhook', id: randomUUID() },
    ...fields,
  });
}
