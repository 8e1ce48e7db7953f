/**
 * What finds the tables and the API this process serves, when set: the admin command line reads the same variables, so
 * a command printed with them works as printed from another terminal.
 */
const sharedWithAdmin = [
  'DYNAMODB_ENDPOINT',
  'DYNAMODB_LOCAL_PORT',
  'TABLE_NAME',
  'SECRETS_TABLE_NAME',
  'PORT',
  'PUBLIC_BASE_URL',
];

/** An admin command as a person pastes it: the variables this process was started with, then the command. */
export function adminCommand(args: string, env: NodeJS.ProcessEnv): string {
  const quoted = (value: string) => (/^[\w./:@-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`);
  const prefix = sharedWithAdmin.filter((name) => env[name]).map((name) => `${name}=${quoted(env[name] as string)} `);
  return `${prefix.join('')}npm run --silent admin -- ${args}`;
}
