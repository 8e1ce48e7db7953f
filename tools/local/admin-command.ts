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

/** `NAME=value` as a POSIX shell reads it back unchanged: single quotes unless the value is plain. */
export function shellAssignment(name: string, value: string): string {
  const quoted = /^[\w./:@-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
  return `${name}=${quoted}`;
}

/** The variables this process was started with that the admin command line reads too, as `NAME=value` words. */
export function sharedAssignments(env: NodeJS.ProcessEnv): string[] {
  return sharedWithAdmin.filter((name) => env[name]).map((name) => shellAssignment(name, env[name] as string));
}

/** An admin command as a person pastes it: the variables this process was started with, then the command. */
export function adminCommand(args: string, env: NodeJS.ProcessEnv): string {
  return [...sharedAssignments(env), `npm run --silent admin -- ${args}`].join(' ');
}
