import { createHash } from 'node:crypto';
import type { PagePosition } from '../storage/prospect-pages';
import { InvalidInputError } from '../domain/errors';
import { isUuid } from '../ids';
import { messages } from '../messages';

/**
 * The opaque `cursor` of the read routes' lists (docs/api.md#pagination): the position of the
 * previous page's last item, bound to the list, the workspace and the prospect it was issued for
 * (the audit log's, to the workspace alone).
 * It is validated, not trusted: a cursor of another list, prospect or workspace, or one that does
 * not decode to a reception time and a UUID, is a 400; and the start key is built from the
 * caller's own workspace and prospect (lib/storage/prospect-pages.ts), so no cursor can reach
 * another partition.
 */
export type CursorBinding =
  | { list: 'notes' | 'changes'; workspaceId: string; prospectId: string }
  /** The audit log of a workspace (docs/api.md#audit-log): a position is an entry's time and id. */
  | { list: 'audit'; workspaceId: string }
  /** The changes made with an API key (`GET /api-keys/{k}/changes`, docs/api.md#settings-api). */
  | { list: 'key-changes'; workspaceId: string; keyId: string }
  /**
   * The webhook call journal of a workspace (docs/api.md#webhook-call-journal, #settings-api), all calls or the failed
   * ones only.
   */
  | { list: 'webhook-calls' | 'failed-webhook-calls'; workspaceId: string }
  /** The deliveries of one subscription (docs/api.md#outbound-events, #settings-api), any status or one. */
  | { list: 'deliveries'; workspaceId: string; subscriptionId: string; status: string };

/** Far above any cursor issued (about 130 characters), far below the gateway's URL limit. */
const maxCursorLength = 512;
/** Reception times are written by `Date.prototype.toISOString`: exactly this layout. */
const receptionTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** What, besides the list and the workspace, a cursor is bound to. */
const narrowing = (binding: CursorBinding): string => {
  if ('prospectId' in binding) return binding.prospectId;
  if ('keyId' in binding) return binding.keyId;
  if ('subscriptionId' in binding) return `${binding.subscriptionId}\n${binding.status}`;
  return '';
};

const bindingOf = (binding: CursorBinding): string =>
  createHash('sha256')
    .update(`${binding.list}\n${binding.workspaceId}\n${narrowing(binding)}`, 'utf8')
    .digest('base64url')
    .slice(0, 22);

export function encodeCursor(binding: CursorBinding, position: PagePosition): string {
  return Buffer.from(JSON.stringify({ b: bindingOf(binding), a: position.at, i: position.id }), 'utf8').toString(
    'base64url',
  );
}

export function decodeCursor(cursor: string, binding: CursorBinding): PagePosition {
  const decoded = cursor.length <= maxCursorLength ? parse(cursor) : undefined;
  if (
    decoded === undefined ||
    decoded.b !== bindingOf(binding) ||
    typeof decoded.a !== 'string' ||
    !receptionTime.test(decoded.a) ||
    Number.isNaN(Date.parse(decoded.a)) ||
    new Date(decoded.a).toISOString() !== decoded.a ||
    !isUuid(decoded.i) ||
    Object.keys(decoded).length !== 3
  ) {
    throw new InvalidInputError(messages.query.invalidCursor, {
      field: 'cursor',
      message: messages.query.invalidCursor,
    });
  }
  return { at: decoded.a, id: decoded.i.toLowerCase() };
}

function parse(cursor: string): Record<string, unknown> | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
