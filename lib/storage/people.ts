import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { MemberRole } from '../domain/model';
import { batchGetItems, sameKey, type Store } from './client';
import { keys } from './table-items';

/*
 * A person across workspaces, and their sessions (docs/adr/0013-member-sign-in.md; docs/data-model.md, "Members,
 * sessions and the audit log"). Memberships are written with the member, in the configuration edits' transactions; here
 * they are read.
 */

/** PERSON#<h> / WS#<ws>: this person is this member of this workspace, with this role. */
export type MembershipItem = { workspace_id: string; member_id: string; role: MemberRole };
/**
 * PERSON#<h> / SIGNOUT, the person's last cut-off: a sign-out, a password change or a password reset
 * (docs/adr/0013-member-sign-in.md, point 5). An access token issued up to `signed_out_at` (epoch seconds, as a token's
 * `iat`: that second included) fails unless its `jti` is one of `kept_token_ids`: the token that changed the password,
 * and the tokens issued within that second after the cut-off. `token_id`, the token that signed out, fails whatever its
 * `iat`. A session begun up to `signed_out_at_ms` (epoch milliseconds; on items from before it, the second) no longer
 * refreshes, unless its last access token is kept.
 */
export type SignOutItem = {
  signed_out_at: number;
  signed_out_at_ms: number;
  token_id?: string;
  kept_token_ids: string[];
};
/**
 * SESSION#<sha256(refresh token)>: the person of a refresh token, when their session began (epoch ms; moved past a
 * password change that kept it), the `jti` of the last access token issued for it, its expiry (TTL).
 */
export type SessionItem = { email: string; signed_in_at: number; last_token_id?: string; expires_at: number };

const membershipOf = (item: Record<string, unknown> | undefined): MembershipItem | undefined =>
  item && { workspace_id: String(item.workspace_id), member_id: String(item.member_id), role: item.role as MemberRole };
const signOutOf = (item: Record<string, unknown> | undefined): SignOutItem | undefined =>
  item && {
    signed_out_at: Number(item.signed_out_at),
    signed_out_at_ms:
      typeof item.signed_out_at_ms === 'number' ? item.signed_out_at_ms : Number(item.signed_out_at) * 1000,
    ...(typeof item.token_id === 'string' ? { token_id: item.token_id } : {}),
    kept_token_ids: item.kept_token_ids instanceof Set ? [...(item.kept_token_ids as Set<string>)] : [],
  };

/**
 * Whether the person's last cut-off ends this access token: issued up to its second and not kept, or the very token
 * that signed out. The authorizer's rule, which sign-in and refresh also read to tell a token they just received
 * that would fail.
 */
export function tokenSignedOut(
  signOut: SignOutItem | undefined,
  token: { tokenId: string; issuedAt: number },
): boolean {
  if (signOut === undefined) return false;
  if (token.tokenId === signOut.token_id) return true;
  return token.issuedAt <= signOut.signed_out_at && !signOut.kept_token_ids.includes(token.tokenId);
}

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

/** Access pattern "signed out since?" (routes without a workspace, a refresh): one GetItem, strongly consistent. */
export async function readSignOut(store: Store, email: string): Promise<SignOutItem | undefined> {
  const { Item } = await store.db.send(
    new GetCommand({ TableName: store.tableName, Key: keys.signOut(email), ConsistentRead: true }),
  );
  return signOutOf(Item);
}

/**
 * The person's new cut-off, in place of the last: one PutItem, conditional on being later than the one it replaces,
 * so that of two cut-offs written at once the later stands whatever the order their writes land in. Refused, it is
 * already superseded: the cut-off standing is later and ends every token and session this one would.
 */
export async function recordSignOut(
  store: Store,
  email: string,
  signOut: Omit<SignOutItem, 'kept_token_ids'> & { kept_token_ids?: string[] },
): Promise<void> {
  const { kept_token_ids: kept = [], ...rest } = signOut;
  try {
    await store.db.send(
      new PutCommand({
        TableName: store.tableName,
        Item: { ...keys.signOut(email), ...rest, ...(kept.length > 0 ? { kept_token_ids: new Set(kept) } : {}) },
        ConditionExpression: 'attribute_not_exists(signed_out_at_ms) OR signed_out_at_ms < :at',
        ExpressionAttributeValues: { ':at': signOut.signed_out_at_ms },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/**
 * A token issued after the cut-off but within its second, which `tokenSignedOut` would take for one issued before:
 * added to the kept ones (`ADD` to the set, atomic), on the condition that this cut-off still stands. Refused, a
 * later cut-off came after the token was issued and rightly ends it.
 */
export async function keepToken(store: Store, email: string, signedOutAtMs: number, tokenId: string): Promise<void> {
  try {
    await store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: keys.signOut(email),
        UpdateExpression: 'ADD kept_token_ids :token',
        ConditionExpression: 'signed_out_at_ms = :at',
        ExpressionAttributeValues: { ':token': new Set([tokenId]), ':at': signedOutAtMs },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/**
 * Access pattern "the person": one Query of their partition, strongly consistent: their memberships (`WS#…`, the
 * workspaces of `POST /session` and `GET /workspaces`) and their last cut-off (`SIGNOUT`), which a sign-in reads.
 */
export async function readPerson(
  store: Store,
  email: string,
): Promise<{ memberships: MembershipItem[]; signOut: SignOutItem | undefined }> {
  const memberships: MembershipItem[] = [];
  let signOut: SignOutItem | undefined;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await store.db.send(
      new QueryCommand({
        TableName: store.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.personPk(email) },
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) {
      if (String(item.sk).startsWith('WS#')) memberships.push(membershipOf(item) as MembershipItem);
      else if (item.sk === keys.signOut(email).sk) signOut = signOutOf(item);
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return { memberships, signOut };
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
    Item && {
      email: String(Item.email),
      signed_in_at: Number(Item.signed_in_at),
      ...(typeof Item.last_token_id === 'string' ? { last_token_id: Item.last_token_id } : {}),
      expires_at: Number(Item.expires_at),
    }
  );
}

/**
 * A refresh of the session: the `jti` of the access token just issued for it, and, for a session a password change
 * kept, its new start just past that change. One UpdateItem, on the condition that the session is still there (an
 * item gone with its TTL is not made again).
 */
export async function recordRefresh(
  store: Store,
  refreshToken: string,
  refresh: { last_token_id: string; signed_in_at?: number },
): Promise<void> {
  const restarted = refresh.signed_in_at !== undefined;
  try {
    await store.db.send(
      new UpdateCommand({
        TableName: store.tableName,
        Key: keys.session(refreshToken),
        UpdateExpression: `SET last_token_id = :token${restarted ? ', signed_in_at = :at' : ''}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: {
          ':token': refresh.last_token_id,
          ...(restarted ? { ':at': refresh.signed_in_at } : {}),
        },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
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
