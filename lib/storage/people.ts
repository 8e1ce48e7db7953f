import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { MemberRole } from '../domain/model';
import { batchGetItems, sameKey, type Store } from './client';
import { keys } from './table-items';

/*
 * A person across workspaces, and their sessions (docs/adr/0013; docs/data-model.md, "Members, sessions and the
 * audit log"). Memberships are written with the member, in the configuration edits' transactions; here they are read.
 */

/** PERSON#<h> / WS#<ws>: this person is this member of this workspace, with this role. */
export type MembershipItem = { workspace_id: string; member_id: string; role: MemberRole };
/**
 * PERSON#<h> / SIGNOUT: an access token issued before `signed_out_at` (epoch seconds, as a token's `iat`), or
 * `token_id`, fails; a session begun up to `signed_out_at_ms` (epoch milliseconds) no longer refreshes, so that a
 * sign-out in the very second of a sign-in still ends that session.
 */
export type SignOutItem = { signed_out_at: number; signed_out_at_ms?: number; token_id: string };
/** SESSION#<sha256(refresh token)>: the person of a refresh token, when their session began (epoch ms), its expiry (TTL). */
export type SessionItem = { email: string; signed_in_at: number; expires_at: number };

const membershipOf = (item: Record<string, unknown> | undefined): MembershipItem | undefined =>
  item && { workspace_id: String(item.workspace_id), member_id: String(item.member_id), role: item.role as MemberRole };
const signOutOf = (item: Record<string, unknown> | undefined): SignOutItem | undefined =>
  item && {
    signed_out_at: Number(item.signed_out_at),
    ...(typeof item.signed_out_at_ms === 'number' ? { signed_out_at_ms: item.signed_out_at_ms } : {}),
    token_id: String(item.token_id),
  };

/**
 * Access pattern "is this person a member of workspace W, and signed out since?": the authorizer's one
 * BatchGetItem of the two items, strongly consistent, so a removal, a demotion or a sign-out counts on the next call.
 */
export async function readMembershipAndSignOut(
  store: Store,
  email: string,
  workspaceId: string,
): Promise<{ membership: MembershipItem | undefined; signOut: SignOutItem | undefined }> {
  const [membershipKey, signOutKey] = [keys.membership(email, workspaceId), keys.signOut(email)];
  const items = await batchGetItems(store, [membershipKey, signOutKey], { consistentRead: true });
  return {
    membership: membershipOf(items.find((item) => sameKey(item, membershipKey))),
    signOut: signOutOf(items.find((item) => sameKey(item, signOutKey))),
  };
}

/** Access pattern "signed out since?" (routes without a workspace): one GetItem, strongly consistent. */
export async function readSignOut(store: Store, email: string): Promise<SignOutItem | undefined> {
  const { Item } = await store.db.send(
    new GetCommand({ TableName: store.tableName, Key: keys.signOut(email), ConsistentRead: true }),
  );
  return signOutOf(Item);
}

/** The person's last sign-out: every token issued before it, and the token that signed out, fail from now on. */
export async function recordSignOut(store: Store, email: string, signOut: SignOutItem): Promise<void> {
  await store.db.send(new PutCommand({ TableName: store.tableName, Item: { ...keys.signOut(email), ...signOut } }));
}

/** Access pattern "the workspaces of a person": one Query of their partition (`begins_with(sk, "WS#")`). */
export async function listMembershipsOfPerson(store: Store, email: string): Promise<MembershipItem[]> {
  const memberships: MembershipItem[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await store.db.send(
      new QueryCommand({
        TableName: store.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :ws)',
        ExpressionAttributeValues: { ':pk': keys.personPk(email), ':ws': 'WS#' },
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    memberships.push(...(page.Items ?? []).flatMap((item) => membershipOf(item) ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return memberships;
}

/** A session opened by `POST /session`, kept as long as its refresh token (TTL). */
export async function putSession(store: Store, refreshToken: string, session: SessionItem): Promise<void> {
  await store.db.send(
    new PutCommand({ TableName: store.tableName, Item: { ...keys.session(refreshToken), ...session } }),
  );
}

/** Access pattern "the session of a refresh token": one GetItem, strongly consistent. */
export async function getSession(store: Store, refreshToken: string): Promise<SessionItem | undefined> {
  const { Item } = await store.db.send(
    new GetCommand({ TableName: store.tableName, Key: keys.session(refreshToken), ConsistentRead: true }),
  );
  return (
    Item && { email: String(Item.email), signed_in_at: Number(Item.signed_in_at), expires_at: Number(Item.expires_at) }
  );
}

/**
 * Access pattern "failed sign-ins of an e-mail in its window", counted before the identity provider is asked: one
 * UpdateItem that adds the attempt only while the count is under the limit (`ADD` under a condition, atomic across
 * concurrent calls), so that parallel guesses cannot all read a count under it and pass; at the limit nothing is
 * counted and the attempt is refused. Kept past the window (TTL).
 */
export async function countSignInAttempt(
  store: Store,
  email: string,
  window: { start: string; expiresAt: number },
  limit: number,
): Promise<'counted' | 'refused'> {
  try {
    await store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: keys.signInFailures(email, window.start),
        UpdateExpression: 'ADD failures :one SET expires_at = :expiresAt',
        ConditionExpression: 'attribute_not_exists(failures) OR failures < :limit',
        ExpressionAttributeValues: { ':one': 1, ':expiresAt': window.expiresAt, ':limit': limit },
      }),
    );
    return 'counted';
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return 'refused';
    throw error;
  }
}

/**
 * A counted attempt that proved the password right, taken back: `ADD -1`, atomic like the count, and never below
 * zero (an item already gone with its TTL stays gone).
 */
export async function uncountSignInAttempt(store: Store, email: string, windowStart: string): Promise<void> {
  try {
    await store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: keys.signInFailures(email, windowStart),
        UpdateExpression: 'ADD failures :minusOne',
        ConditionExpression: 'failures > :zero',
        ExpressionAttributeValues: { ':minusOne': -1, ':zero': 0 },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}
