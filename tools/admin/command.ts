import { NotFoundError } from '../../lib/domain/model';
import { checkedId, type IdKind, AdminInputError, requireWorkspace, unknownId } from '../../lib/settings/admin-input';
import type { CommandLine } from './args';
import type { Target } from './target';

/** What a command produces: the --json document, and the readable text printed otherwise. */
export type CommandResult = { document: unknown; text: string };

type Presence = 'required' | 'optional';
/** An option naming a record by id: resolveCommand checks it (checkedId) before the command runs. */
export type IdOption = { presence: Presence; id: IdKind };
/** An option without value (`--failed`), false when absent; refused by every command that does not declare it. */
type Flag = 'flag';
type OptionSpec = Record<string, Presence | IdOption | Flag>;
type OptionValues<S extends OptionSpec> = {
  [K in keyof S]: S[K] extends Flag
    ? boolean
    : S[K] extends 'required' | { presence: 'required' }
      ? string
      : string | undefined;
};
/** What a command's run receives: option values by name, its flags as booleans. */
export type ResolvedOptions = Record<string, string | boolean | undefined>;

export type Command = {
  words: readonly string[];
  summary: string;
  options: OptionSpec;
  run(target: Target, options: ResolvedOptions): Promise<CommandResult>;
};

export const idOption = <P extends Presence>(presence: P, id: IdKind): { presence: P; id: IdKind } => ({
  presence,
  id,
});

/** The workspace a command acts on (every command but `seed` and `workspace list`). */
export const workspaceOption = idOption('required', 'workspace');

const presenceOf = (spec: Presence | IdOption | Flag): Presence | Flag =>
  typeof spec === 'string' ? spec : spec.presence;

/** The options some command declares as flags: the parser reads them without value (parseCommandLine). */
export const flagNamesOf = (commands: readonly Command[]): Set<string> =>
  new Set(
    commands.flatMap((command) =>
      Object.entries(command.options)
        .filter(([, spec]) => spec === 'flag')
        .map(([name]) => name),
    ),
  );

/** Types a command's options from its spec; resolveCommand guarantees the required ones. */
export const defineCommand = <S extends OptionSpec>(command: {
  words: readonly string[];
  summary: string;
  options: S;
  run(target: Target, options: OptionValues<S>): Promise<CommandResult>;
}): Command => command as Command;

/**
 * The command and its options, every id option already checked and lowercased: a malformed id
 * is refused here, for every command alike, before any DynamoDB call.
 */
export function resolveCommand(
  commands: readonly Command[],
  line: CommandLine,
): { command: Command; options: Record<string, string | boolean> } {
  const wanted = line.words.join(' ');
  const command = commands.find((candidate) => candidate.words.join(' ') === wanted);
  if (!command) {
    throw new AdminInputError(`Commande inconnue : « ${wanted} ». Commandes possibles :\n${usageLines(commands)}`);
  }
  for (const name of [...line.options.keys(), ...line.commandFlags]) {
    // Own properties only: `--constructor` is no option of any command.
    if (!Object.hasOwn(command.options, name)) {
      throw new AdminInputError(`Option inconnue pour « ${wanted} » : --${name}. Usage : ${usageOf(command)}`);
    }
  }
  for (const name of line.commandFlags) {
    if (command.options[name] !== 'flag') {
      throw new AdminInputError(`L'option --${name} attend une valeur. Usage : ${usageOf(command)}`);
    }
  }
  for (const name of line.options.keys()) {
    if (command.options[name] === 'flag') {
      throw new AdminInputError(`L'option --${name} ne prend pas de valeur. Usage : ${usageOf(command)}`);
    }
  }
  for (const [name, spec] of Object.entries(command.options)) {
    if (presenceOf(spec) === 'required' && !line.options.get(name)?.trim()) {
      throw new AdminInputError(`Option obligatoire manquante ou vide : --${name}. Usage : ${usageOf(command)}`);
    }
  }
  const options: Record<string, string | boolean> = {};
  for (const [name, value] of line.options) {
    const spec = command.options[name] as Presence | IdOption;
    options[name] = typeof spec === 'string' ? value : checkedId(spec.id, value);
  }
  for (const [name, spec] of Object.entries(command.options)) {
    if (spec === 'flag') options[name] = line.commandFlags.has(name);
  }
  return { command, options };
}

export function usageOf(command: Command): string {
  const options = Object.entries(command.options).map(([name, spec]) => {
    const presence = presenceOf(spec);
    if (presence === 'flag') return `[--${name}]`;
    return presence === 'required' ? `--${name} <${name}>` : `[--${name} <${name}>]`;
  });
  return [...command.words, ...options].join(' ');
}

export const usageLines = (commands: readonly Command[]): string =>
  commands.map((command) => `  ${usageOf(command)}\n      ${command.summary}`).join('\n');

/**
 * A command on one record of a workspace, reached through the settings API's use case (export, erase): the workspace
 * checked first, then the record's "not found" named as every admin id is (« Prospect inconnu dans cet espace : <id> »).
 */
export async function onRecord<T>(
  target: Target,
  workspaceId: string,
  record: { kind: 'prospect' | 'candidate'; id: string },
  work: () => Promise<T>,
): Promise<T> {
  await requireWorkspace(target.deps, workspaceId);
  try {
    return await work();
  } catch (error) {
    throw error instanceof NotFoundError ? unknownId(record.kind, record.id) : error;
  }
}
