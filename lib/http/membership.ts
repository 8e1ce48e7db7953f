import type { MemberPrincipal } from '../domain/model';

type Membership = NonNullable<MemberPrincipal['membership']>;

/**
 * The membership a settings route under /workspaces/{workspace_id} acts with: the authorizer read it for every such
 * route (lib/auth/authorize.ts) and memberGate let the call through only with it, so its absence is a fault (500).
 */
export function membershipOf(principal: MemberPrincipal): Membership {
  if (principal.membership === undefined) throw new Error('a workspace route reached without its membership');
  return principal.membership;
}

/** The acting member as the admin use cases take it (`Acting`, lib/domain/audit.ts): the workspace and who acts in it. */
export function actingMemberOf(principal: MemberPrincipal): { workspaceId: string; actingMemberId: string } {
  const { workspaceId, memberId } = membershipOf(principal);
  return { workspaceId, actingMemberId: memberId };
}
