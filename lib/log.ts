/**
 * Structured logs without payloads: events carry personal data and secrets (a webhook token may
 * travel in ?token=), so only error names, messages and stacks are written.
 */
export function logError(message: string, error: unknown, fields: Record<string, string | number> = {}): void {
  const detail =
    error instanceof Error ? { errorName: error.name, errorMessage: error.message, stack: error.stack } : {};
  console.error(JSON.stringify({ level: 'ERROR', message, ...fields, ...detail }));
}
