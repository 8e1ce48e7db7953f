import { jest } from '@jest/globals';
import { logger } from '../../lib/observability';

export type CapturedLogs = {
  /** Everything written to stdout and stderr since the capture began, line by line. */
  raw: () => string[];
  /** Those lines as JSON objects (a line that is not JSON fails the test that reads it). */
  lines: () => Record<string, unknown>[];
  restore: () => void;
};

/**
 * The logger's lines at `level`, instead of the test run's SILENT (test/support/global-setup.js),
 * taken from stdout and stderr where Powertools writes them with a `Console` of its own (so a spy
 * on `console` sees nothing). Nothing reaches the terminal until `restore()`.
 */
export function captureLogs(level: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' = 'DEBUG'): CapturedLogs {
  const previous = logger.getLevelName();
  const written: string[] = [];
  const record = (chunk: string | Uint8Array): boolean => {
    written.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  };
  const stdout = jest.spyOn(process.stdout, 'write').mockImplementation(record);
  const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(record);
  logger.setLogLevel(level);
  const raw = () =>
    written
      .join('')
      .split('\n')
      .filter((line) => line !== '');
  return {
    raw,
    lines: () => raw().map((line) => JSON.parse(line) as Record<string, unknown>),
    restore: () => {
      logger.setLogLevel(previous);
      stdout.mockRestore();
      stderr.mockRestore();
    },
  };
}
