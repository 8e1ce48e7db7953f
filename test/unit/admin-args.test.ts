import { AdminInputError } from '../../lib/settings/admin-input';
import { parseCommandLine } from '../../tools/admin/args';
import { resolveCommand, defineCommand, flagNamesOf, usageOf } from '../../tools/admin/command';
import { commands } from '../../tools/admin/commands';

const show = defineCommand({
  words: ['prospect', 'show'],
  summary: 'test',
  options: { workspace: 'required', id: 'required' },
  run: async () => ({ document: null, text: '' }),
});

const calls = defineCommand({
  words: ['webhook', 'calls'],
  summary: 'test',
  options: { workspace: 'required', failed: 'flag', limit: 'optional' },
  run: async () => ({ document: null, text: '' }),
});

const testCommands = [show, calls];
const resolve = (...argv: string[]) => resolveCommand(testCommands, parseCommandLine(argv, flagNamesOf(testCommands)));

describe('admin command line parsing', () => {
  it('reads words, `--name value`, `--name=value` and global flags in any order', () => {
    const line = parseCommandLine(['--json', 'prospect', '--workspace', 'w', 'show', '--id=p', '--aws'], new Set());
    expect(line.words).toEqual(['prospect', 'show']);
    expect(Object.fromEntries(line.options)).toEqual({ workspace: 'w', id: 'p' });
    expect([...line.flags].sort()).toEqual(['aws', 'json']);
    expect(resolve('prospect', 'show', '--workspace', 'w', '--id', 'p').options).toEqual({ workspace: 'w', id: 'p' });
  });

  it.each([
    [['prospect', 'show', '--workspace', '--json', '--id', 'p'], "L'option --workspace attend une valeur."],
    [['prospect', 'show', '--workspace', 'w', '--id'], "L'option --id attend une valeur."],
    [['prospect', 'show', '--workspace', 'w', '--workspace', 'v', '--id', 'p'], 'donnée deux fois'],
    [['prospect', 'show', '-w', 'w'], 'Option inconnue : -w'],
    [['prospect', 'show', '--json=yes'], 'ne prend pas de valeur'],
    [['prospect', 'show', '--workspace', 'w', '--id', 'p', '--colour', 'x'], 'Option inconnue pour « prospect show »'],
    [['prospect', 'show', '--workspace', 'w'], 'Option obligatoire manquante ou vide : --id'],
    [['prospect', 'show', '--workspace', 'w', '--id='], 'Option obligatoire manquante ou vide : --id'],
    [['prospect', 'delete'], 'Commande inconnue : « prospect delete »'],
    [
      ['prospect', 'show', '--workspace', 'w', '--id', 'p', '--failed'],
      'Option inconnue pour « prospect show » : --failed',
    ],
    [['webhook', 'calls', '--workspace', 'w', '--failed=oui'], "L'option --failed ne prend pas de valeur."],
  ])('refuses %j with a French message', (argv, message) => {
    expect.assertions(2);
    try {
      resolve(...argv);
    } catch (error) {
      expect(error).toBeInstanceOf(AdminInputError);
      expect((error as Error).message).toContain(message);
    }
  });

  it('reads a flag a command declares without value, false when absent, anywhere on the line', () => {
    expect(resolve('webhook', 'calls', '--workspace', 'w', '--failed').options).toEqual({
      workspace: 'w',
      failed: true,
    });
    expect(resolve('--failed', 'webhook', '--limit=5', 'calls', '--workspace', 'w').options).toEqual({
      workspace: 'w',
      failed: true,
      limit: '5',
    });
    expect(resolve('webhook', 'calls', '--workspace', 'w').options).toEqual({ workspace: 'w', failed: false });
    const line = parseCommandLine(['webhook', '--failed', 'calls', '--json'], new Set(['failed']));
    expect(line.words).toEqual(['webhook', 'calls']);
    expect([...line.commandFlags]).toEqual(['failed']);
    expect([...line.flags]).toEqual(['json']);
    expect(usageOf(calls)).toBe('webhook calls --workspace <workspace> [--failed] [--limit <limit>]');
  });

  it('refuses a value given to a flag the parser was not told about', () => {
    expect(() =>
      resolveCommand(
        testCommands,
        parseCommandLine(['webhook', 'calls', '--workspace', 'w', '--failed', 'x'], new Set()),
      ),
    ).toThrow("L'option --failed ne prend pas de valeur.");
  });

  it('knows the flags of the admin commands by default, each one a flag wherever it is declared', () => {
    expect([...flagNamesOf(commands)].sort()).toEqual(['default', 'failed']);
    for (const command of commands) {
      for (const [name, spec] of Object.entries(command.options)) {
        if (flagNamesOf(commands).has(name))
          expect([command.words.join(' '), name, spec]).toEqual([command.words.join(' '), name, 'flag']);
      }
    }
    const line = parseCommandLine(
      ['pipeline', 'add', '--default', '--workspace', 'w', '--name', 'n'],
      flagNamesOf(commands),
    );
    expect([...line.commandFlags]).toEqual(['default']);
    expect(Object.fromEntries(line.options)).toEqual({ workspace: 'w', name: 'n' });
  });
});
