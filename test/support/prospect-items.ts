import { randomUUID } from 'node:crypto';
import { items, type ProspectItem } from '../../lib/storage/table-items';
import type { Prospect } from '../../lib/domain/model';

/** A prospect item as the storage builder makes it, on no board and without contact but what the test gives. */
export function aProspectItem(workspaceId: string, fields: Partial<Prospect> = {}): ProspectItem {
  const at = fields.created_at ?? new Date().toISOString();
  return items.prospect({
    id: randomUUID(),
    workspace_id: workspaceId,
    pipeline_id: null,
    stage_id: null,
    setter_id: null,
    closer_id: null,
    next_follow_up_at: null,
    first_name: null,
    last_name: null,
    email: null,
    phone: null,
    social_url: null,
    source: null,
    version: 1,
    created_at: at,
    updated_at: at,
    actor: { kind: 'admin', id: null },
    ...fields,
  });
}
