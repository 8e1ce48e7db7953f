import { AdminInputError } from '../../lib/settings/admin-input';

/** Flags every command accepts; every other option carries a value, unless its command declares it a flag. */
export const globalFlags = ['json', 'aws', 'help'] as const;
export type GlobalFlag = (typeof globalFlags)[number];

/**
 * `flags`: the global flags given; `commandFlags`: the other flags given (`--failed`), each one
 * checked by resolveCommand against the command's declared options.
 */
export type CommandLine = {
  words: string[];
  options: Map<string, string>;
  flags: Set<GlobalFlag>;
  commandFlags: Set<string>;
};

const isGlobalFlag = (name: string): name is GlobalFlag => (globalFlags as readonly string[]).includes(name);

/**
 * `apikey create --workspace W --name=N --json`: command words, `--name value` or `--name=value`
 * options, and flags, in any order. Hand-written rather than node:util parseArgs so that every
 * refusal is a French sentence and `--workspace --json` is a missing value, not a workspace named
 * "--json". `commandFlags` names the options some command declares as flags (`--failed`): they
 * take no value, so the word after one is read as a word or an option of its own; by default, the
 * flags of every admin command (a name is a flag in every command that declares it, or in none).
 */
export function parseCommandLine(argv: readonly string[], commandFlags: ReadonlySet<string>): CommandLine {
  const line: CommandLine = { words: [], options: new Map(), flags: new Set(), commandFlags: new Set() };
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] ?? '';
    if (!argument.startsWith('-')) {
      line.words.push(argument);
      continue;
    }
    if (!argument.startsWith('--') || argument === '--') throw new AdminInputError(`Option inconnue : ${argument}`);
    const equals = argument.indexOf('=');
    const name = argument.slice(2, equals === -1 ? undefined : equals);
    const inlineValue = equals === -1 ? undefined : argument.slice(equals + 1);
    if (isGlobalFlag(name) || commandFlags.has(name)) {
      if (inlineValue !== undefined) throw new AdminInputError(`L'option --${name} ne prend pas de valeur.`);
      if (isGlobalFlag(name)) line.flags.add(name);
      else line.commandFlags.add(name);
      continue;
    }
    let value = inlineValue;
    if (value === undefined) {
      const next = argv[index + 1];
      if (next === undefined || next.startsWith('--'))
        throw new AdminInputError(`L'option --${name} attend une valeur.`);
      value = next;
      index += 1;
    }
    if (line.options.has(name)) throw new AdminInputError(`L'option --${name} est donnée deux fois.`);
    line.options.set(name, value);
  }
  return line;
}
