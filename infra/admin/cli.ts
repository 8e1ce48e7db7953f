import { AdminInputError } from '../../lib/admin/errors';
import { parseCommandLine } from './args';
import { resolveCommand, usageLines } from './command';
import { commands } from './commands';
import { resolveTarget } from './target';

const usage = [
  'Usage : npm run --silent admin -- <commande> [options]',
  '',
  'Commandes :',
  usageLines(commands),
  '',
  'Options de toutes les commandes :',
  "  --json   un seul document JSON sur la sortie standard, rien d'autre",
  '  --aws    DynamoDB sur AWS (identifiants AWS habituels) ; TABLE_NAME et PUBLIC_BASE_URL obligatoires',
  '',
  'Sans --aws : la table locale (DYNAMODB_ENDPOINT, par défaut http://127.0.0.1:8000 ; TABLE_NAME, par défaut crm-local).',
].join('\n');

/** Exit codes: 0 done, 1 internal or storage failure, 2 a request to correct (message on stderr). */
async function main(argv: readonly string[]): Promise<number> {
  try {
    const line = parseCommandLine(argv);
    if (line.flags.has('help')) {
      process.stdout.write(`${usage}\n`);
      return 0;
    }
    if (line.words.length === 0) throw new AdminInputError(`Aucune commande.\n${usage}`);
    const { command, options } = resolveCommand(commands, line);
    const result = await command.run(resolveTarget(line.flags.has('aws'), process.env), options);
    process.stdout.write(line.flags.has('json') ? `${JSON.stringify(result.document, null, 2)}\n` : `${result.text}\n`);
    return 0;
  } catch (error) {
    if (error instanceof AdminInputError) {
      process.stderr.write(`Erreur : ${error.message}\n`);
      return 2;
    }
    const detail = error instanceof Error ? `${error.name} : ${error.message}` : String(error);
    process.stderr.write(`Échec de la commande (base de données injoignable ou erreur interne) : ${detail}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
