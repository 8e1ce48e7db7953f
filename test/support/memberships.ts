import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { MemberRole } from '../../lib/domain/model';
import type { Store } from '../../lib/storage/client';
import { emailKey, keys } from '../../lib/storage/table-items';

/**
 * A membership put straight into the table (PERSON#<h> / WS#<ws>), as the members' configuration edits write it
 * with the member (docs/api.md#sign-in): for the sign-in tests until `member add` and `POST /members` write it
 * themselves.
 */
export async function putMembershipDirectly(
  store: Store,
  membership: { email: string; workspaceId: string; memberId: string; role: MemberRole },
): Promise<void> {
  await store.db.send(
    new PutCommand({
      TableName: store.tableName,
      Item: {
        ...keys.membership(emailKey(membership.email), membership.workspaceId),
        workspace_id: membership.workspaceId,
        member_id: membership.memberId,
        role: membership.role,
      },
    }),
  );
}
