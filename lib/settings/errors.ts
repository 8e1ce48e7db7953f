/**
 * A request the administrator can correct (bad option value, unknown workspace, key or prospect,
 * invalid seed description). The command line prints its French message and exits with 2;
 * any other error is an internal failure (exit 1).
 */
export class AdminInputError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AdminInputError';
  }
}
