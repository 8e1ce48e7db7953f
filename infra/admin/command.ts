import { AdminInputError } from '../../lib/admin/errors';
import type { CommandLine } from './args';
import type { Target } from './target';

/** What a command produces: the --json document, and the readable text printed otherwise. */
export type CommandResult = { document: unknown; text: string };

type OptionSpec = Record<string, 'required' | 'optional'>;
type OptionValues<S extends OptionSpec> = { [K in keyof S]: S[K] extends 'required' ? string : string | undefined };

export type Command = {
  words: readonly string[];
  summary: string;
  options: OptionSpec;
  run(target: Target, options: Record<string, string | undefined>): Promise<CommandResult>;
};

/** Types a command's options from its spec; resolveCommand guarantees the required ones. */
export const defineCommand = <S extends OptionSpec>(command: {
  words: readonly string[];
  summary: string;
  options: S;
  run(target: Target, options: OptionValues<S>): Promise<CommandResult>;
}): Command => command as Command;

export function resolveCommand(
  commands: readonly Command[],
  line: CommandLine,
): { command: Command; options: Record<string, string> } {
  const wanted = line.words.join(' ');
  const command = commands.find((candidate) => candidate.words.join(' ') === wanted);
  if (!command) {
    throw new AdminInputError(`Commande inconnue : « ${wanted} ». Commandes possibles :\n${usageLines(commands)}`);
  }
  for (const name of line.options.keys()) {
    if (!(name in command.options)) {
      throw new AdminInputError(`Option inconnue pour « ${wanted} » : --${name}. Usage : ${usageOf(command)}`);
    }
  }
  for (const [name, presence] of Object.entries(command.options)) {
    if (presence === 'required' && !line.options.get(name)?.trim()) {
      throw new AdminInputError(`Option obligatoire manquante ou vide : --${name}. Usage : ${usageOf(command)}`);
    }
  }
  return { command, options: Object.fromEntries(line.options) };
}

export function usageOf(command: Command): string {
  const options = Object.entries(command.options).map(([name, presence]) =>
    presence === 'required' ? `--${name} <${name}>` : `[--${name} <${name}>]`,
  );
  return [...command.words, ...options].join(' ');
}

export const usageLines = (commands: readonly Command[]): string =>
  commands.map((command) => `  ${usageOf(command)}\n      ${command.summary}`).join('\n');
