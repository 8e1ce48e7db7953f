import { isUuid } from '../ids';
import { AdminInputError } from './errors';

/** The records an admin command names by id. */
const malformed = {
  workspace: "Identifiant d'espace de travail invalide",
  apiKey: "Identifiant de clé d'API invalide",
  prospect: 'Identifiant de prospect invalide',
  candidate: 'Identifiant de candidat invalide',
  changeLogEntry: "Identifiant d'entrée du journal invalide",
} as const;

export type IdKind = keyof typeof malformed;

/** An unknown change-log entry is refused by undoChange itself, in the same words. */
const unknown = {
  workspace: 'Espace de travail inconnu',
  apiKey: "Clé d'API inconnue dans cet espace",
  prospect: 'Prospect inconnu dans cet espace',
  candidate: 'Candidat inconnu dans cet espace',
} as const satisfies Partial<Record<IdKind, string>>;

/** A pasted 500-character value is quoted by its start only. */
const quoted = (value: string): string => `« ${value.length > 40 ? `${value.slice(0, 40)}…` : value} »`;

/**
 * The one check of an id given to an admin command or use case, before it enters any DynamoDB key:
 * anything but a UUID is refused without a round trip, and since ids are stored lowercase, a
 * UUID typed in capitals names the same record.
 */
export function checkedId(kind: IdKind, value: string): string {
  if (!isUuid(value)) throw new AdminInputError(`${malformed[kind]} (un UUID est attendu) : ${quoted(value)}`);
  return value.toLowerCase();
}

/** A well-formed id that names nothing in the workspace (another workspace's record included). */
export const unknownId = (kind: keyof typeof unknown, id: string): AdminInputError =>
  new AdminInputError(`${unknown[kind]} : ${id}`);
