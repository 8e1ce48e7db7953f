import { LogFormatter, LogItem } from '@aws-lambda-powertools/logger';
import type { LogAttributes, UnformattedAttributes } from '@aws-lambda-powertools/logger/types';

/**
 * Log items for a person reading a terminal (`npm start`): the time of day, the level, the message,
 * then our keys. What only matters in CloudWatch (service, function ARN and memory, sampling rate,
 * X-Ray trace) is left out; the JSON lines of the Lambda functions keep it all.
 */
export class ReadableLogFormatter extends LogFormatter {
  formatAttributes(attributes: UnformattedAttributes, additional: LogAttributes): LogItem {
    const context = attributes.lambdaContext;
    return new LogItem({
      attributes: {
        time: clockTime(attributes.timestamp),
        level: attributes.logLevel,
        message: attributes.message,
        ...(context?.coldStart === true ? { cold_start: true } : {}),
      },
    }).addAttributes(additional);
  }
}

function clockTime(at: Date): string {
  return [at.getHours(), at.getMinutes(), at.getSeconds()].map((part) => String(part).padStart(2, '0')).join(':');
}

/** Errors come as `{ name, message, stack }` (lib/observability/logger.ts, `errorFields`). */
type ErrorFields = { name?: unknown; message?: unknown; stack?: unknown };

/**
 * One item as `HH:MM:SS LEVEL message key=value…`: a text with a space, a quote or an equals sign
 * is quoted as JSON, any other value written as JSON; an error reads `Name: message`, its stack below.
 */
export function readableLine(attributes: LogAttributes): string {
  const { time, level, message, ...rest } = attributes;
  const parts = [String(time ?? ''), String(level ?? '').padEnd(5), String(message ?? '')];
  let stack: string | undefined;
  for (const [key, value] of Object.entries(rest)) {
    if (key === 'error' && typeof value === 'object' && value !== null) {
      const error = value as ErrorFields;
      parts.push(`error=${quoted(`${String(error.name)}: ${String(error.message)}`)}`);
      if (typeof error.stack === 'string') stack = error.stack.split('\n').slice(1).join('\n');
      continue;
    }
    parts.push(`${key}=${typeof value === 'string' ? quoted(value) : JSON.stringify(value)}`);
  }
  return stack ? `${parts.join(' ')}\n${stack}` : parts.join(' ');
}

function quoted(text: string): string {
  return text === '' || /[\s"=]/.test(text) ? JSON.stringify(text) : text;
}
