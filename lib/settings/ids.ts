import { NotFoundError } from '../domain/errors';
import { isUuid } from '../ids';
import { messages } from '../messages';
import { AdminInputError } from './errors';

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
