import type { Store } from './client';
import { keys, type ItemKey } from './table-items';
import type { MemberRole } from '../domain/model';

/**
 * A person's membership of one workspace (docs/adr/0013-member-sign-in.md; docs/data-model.md, "Members, sessions and
 * the audit log"): `PERSON#<sha256(e-mail)>` / `WS#<ws>`, what the authorizer reads strongly
 * consistent on every settings call. It mirrors a member of the workspace's configuration item who
 * may sign in (an e-mail, not removed), and is only ever written or deleted in the same transaction
 * as that member (lib/storage/config-edits.ts, conditional on `config_version`), or with the new
 * workspace by the seed.
 */
export type Membership = { workspace_id: string; member_id: string; role: MemberRole };

export type MembershipItem = Membership & ItemKey & { type: 'membership' };

export const membershipItem = (email: string, membership: Membership): MembershipItem => ({
  ...keys.membership(email, membership.workspace_id),
  type: 'membership',
  ...membership,
});

/**
 * Unconditional: the configuration item's condition in the same transaction is what orders edits,
 * and a person added again after a removal, or whose role changes, gets the item anew.
 */
export const membershipPut = (store: Store, email: string, membership: Membership) => ({
  Put: { TableName: store.tableName, Item: membershipItem(email, membership) },
});

export const membershipDelete = (store: Store, email: string, workspaceId: string) => ({
  Delete: { TableName: store.tableName, Key: keys.membership(email, workspaceId) },
});
