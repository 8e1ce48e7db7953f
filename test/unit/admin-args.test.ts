import { AdminInputError } from '../../lib/admin/errors';
import { parseCommandLine } from '../../infra/admin/args';
import { resolveCommand, defineCommand } from '../../infra/admin/command';

const show = defineCommand({
  words: ['prospect', 'show'],
  summary: 'test',
  options: { workspace: 'required', id: 'required' },
  run: async () => ({ document: null, text: '' }),
});

const resolve = (...argv: string[]) => resolveCommand([show], parseCommandLine(argv));

describe('admin command line parsing', () => {
  it('reads words, `--name value`, `--name=value` and global flags in any order', () => {
    const line = parseCommandLine(['--json', 'prospect', '--workspace', 'w', 'show', '--id=p', '--aws']);
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
  ])('refuses %j with a French message', (argv, message) => {
    expect.assertions(2);
    try {
      resolve(...argv);
    } catch (error) {
      expect(error).toBeInstanceOf(AdminInputError);
      expect((error as Error).message).toContain(message);
    }
  });
});
