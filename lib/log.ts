/**
 * Structured logs without payloads: events carry personal data and secrets (a webhook token may
 * travel in ?token=), so only error names, messages and stacks are written.
 */
export function logError(message: string, error: unknown, fields: Record<string, string | number> = {}): void {
  const detail =
    error instanceof Error ? { errorName: error.name, errorMessage: error.message, stack: error.stack } : {};
  console.error(JSON.stringify({ level: 'ERROR', message, ...fields, ...detail }));
}

/**
 * A structured line for CloudWatch Logs metric filters: written to stdout as it is, since Lambda's
 * Node.js runtime prefixes what `console` methods print with a timestamp, request id and level in
 * its text log format (AWS Lambda Developer Guide, "Log and monitor Node.js Lambda functions"), and a
 * JSON filter pattern only matches a log event that is JSON as a whole.
 */
export function logJsonLine(fields: Record<string, string | number>): void {
  process.stdout.write(`${JSON.stringify(fields)}\n`);
}
