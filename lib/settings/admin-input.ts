import { NotFoundError, isUuid, type WorkspaceConfig } from '../domain/model';
import { messages } from '../messages';
import type { Deps } from '../storage/client';
import { configOf, getWorkspace, type WorkspaceItem } from '../storage/workspace-config';

/*
 * What a settings use case checks first of what it is given, the same for the settings API and the command line:
 * the ids it is named, before any of them enters a DynamoDB key, and the workspace they belong to.
 */

/**
 * A request the administrator can correct (bad option value, unknown workspace, key or prospect,
 * invalid seed description). The command line prints its French message and exits with 2;
 * any other error is an internal failure (exit 1).
 */
export class AdminInputError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AdminInputError';
  }
}

/** The records an admin command names by id; a pasted 500-character value is quoted by its start only. */
const malformed = messages.admin.ids.malformed;

export type IdKind = keyof typeof malformed;

/** An unknown change-log entry is refused by undoChange itself, in the same words. */
const unknown = messages.admin.ids.unknown satisfies Partial<Record<IdKind, (id: string) => string>>;

/**
 * The one check of an id given to an admin command or use case, before it enters any DynamoDB key:
 * anything but a UUID is refused without a round trip, and since ids are stored lowercase, a
 * UUID typed in capitals names the same record.
 */
export function checkedId(kind: IdKind, value: string): string {
  if (!isUuid(value)) throw new AdminInputError(malformed[kind](value));
  return value.toLowerCase();
}

/** A well-formed id that names nothing in the workspace (another workspace's record included). */
export const unknownId = (kind: keyof typeof unknown, id: string): AdminInputError =>
  new AdminInputError(unknown[kind](id));

/**
 * The same, as the domain error the settings API answers 404 (docs/api.md#settings-api); the command line exits 2 for
 * it as for an AdminInputError (tools/admin/main.ts).
 */
export const notFoundId = (kind: keyof typeof unknown, id: string): NotFoundError =>
  new NotFoundError(unknown[kind](id));

/**
 * Every admin command names its workspace; an unknown one is the administrator's mistake. The
 * existence check is one strongly consistent GetItem on the workspace item.
 */
export async function requireWorkspace(
  store: Pick<Deps, 'db' | 'tableName'>,
  workspaceId: string,
): Promise<WorkspaceItem> {
  const id = checkedId('workspace', workspaceId);
  const workspace = await getWorkspace(store, id);
  if (!workspace) throw unknownId('workspace', workspaceId);
  return workspace;
}

/**
 * The same check, answering the workspace's configuration, which its item holds (tag names, custom fields): the same
 * one GetItem.
 */
export async function requireWorkspaceConfig(
  store: Pick<Deps, 'db' | 'tableName'>,
  workspaceId: string,
): Promise<WorkspaceConfig> {
  return configOf(await requireWorkspace(store, workspaceId));
}
