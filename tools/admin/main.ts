import { AdminInputError } from '../../lib/settings/admin-input';
import type { Deps, SecretsDeps } from '../../lib/storage/client';
import { DomainError } from '../../lib/domain/model';
import type { IdentityProvider } from '../../lib/domain/identity-provider';
import { parseCommandLine } from './args';
import { flagNamesOf, resolveCommand, usageLines } from './command';
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
  '  --aws    DynamoDB sur AWS (identifiants AWS habituels) ; TABLE_NAME et PUBLIC_BASE_URL obligatoires,',
  '           SECRETS_TABLE_NAME aussi pour les commandes qui écrivent ou lisent un secret de signature',
  "           USER_POOL_ID et USER_POOL_CLIENT_ID aussi pour « member add » (le pool d'utilisateurs déployé)",
  '',
  'Sans --aws : les tables locales (DYNAMODB_ENDPOINT, par défaut http://127.0.0.1:8000 ; TABLE_NAME, par défaut crm-local ;',
  '             SECRETS_TABLE_NAME, par défaut <TABLE_NAME>-secrets) ; « member add » invite avec le fournisseur',
  "             d'identité local que npm start a inscrit dans la table.",
].join('\n');

export type AdminIo = {
  env: NodeJS.ProcessEnv;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** A table client of the caller's (tests count its round trips); otherwise one is built from env. */
  deps?: Deps & Partial<Pick<SecretsDeps, 'secretsTableName'>>;
  /** stderr is a terminal a person watches (progress bars). */
  stderrIsTerminal?: boolean;
  /**
   * The identity provider `member add` invites with (docs/adr/0013-member-sign-in.md); without one, the target's
   * (tools/admin/target.ts).
   */
  identity?: IdentityProvider;
};

/**
 * One run of the admin command line, in process (cli.ts is the process around it).
 * Exit codes: 0 done, 1 internal or storage failure, 2 a request to correct (message on stderr).
 */
export async function main(argv: readonly string[], io: AdminIo): Promise<number> {
  try {
    const line = parseCommandLine(argv, flagNamesOf(commands));
    if (line.flags.has('help')) {
      io.stdout(`${usage}\n`);
      return 0;
    }
    if (line.words.length === 0) throw new AdminInputError(`Aucune commande.\n${usage}`);
    const { command, options } = resolveCommand(commands, line);
    const interactive = io.stderrIsTerminal === true && !line.flags.has('json');
    const target = resolveTarget(line.flags.has('aws'), io.env, io.deps, interactive);
    const result = await command.run({ ...target, identity: io.identity }, options);
    io.stdout(line.flags.has('json') ? `${JSON.stringify(result.document, null, 2)}\n` : `${result.text}\n`);
    return 0;
  } catch (error) {
    // The use cases shared with the settings API refuse with domain errors (its 404, 409, 422): here, requests to correct.
    if (error instanceof AdminInputError || error instanceof DomainError) {
      io.stderr(`Erreur : ${error.message}\n`);
      return 2;
    }
    const detail = error instanceof Error ? `${error.name} : ${error.message}` : String(error);
    io.stderr(`Échec de la commande (base de données injoignable ou erreur interne) : ${detail}\n`);
    return 1;
  }
}
