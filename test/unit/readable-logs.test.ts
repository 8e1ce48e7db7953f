import { spawnSync } from 'node:child_process';
import type { UnformattedAttributes } from '@aws-lambda-powertools/logger/types';
import { ReadableLogFormatter, errorFields, logLevelFrom, readableLine } from '../../lib/observability';

const at = new Date(2026, 10, 23, 9, 5, 7, 450);

function attributes(overrides: Partial<UnformattedAttributes> = {}): UnformattedAttributes {
  return {
    logLevel: 'INFO',
    timestamp: at,
    message: 'request answered',
    serviceName: 'crm-ingest',
    sampleRateValue: 0,
    xRayTraceId: 'Root=1-abc',
    lambdaContext: {
      invokedFunctionArn: 'arn:aws:lambda:eu-west-3:123456789012:function:crm-local-getProspect',
      coldStart: false,
      awsRequestId: 'aws-request',
      memoryLimitInMB: '512',
      functionName: 'crm-local-getProspect',
      functionVersion: '$LATEST',
    },
    ...overrides,
  } as UnformattedAttributes;
}

const lineOf = (unformatted: UnformattedAttributes, additional: Record<string, unknown> = {}) => {
  const item = new ReadableLogFormatter().formatAttributes(unformatted, additional);
  item.prepareForPrint();
  return readableLine(item.getAttributes());
};

describe('the readable formatter (npm start in a terminal)', () => {
  test('writes the local time of day, the level, the message, then our keys, nothing of CloudWatch', () => {
    expect(lineOf(attributes(), { route: 'getProspect', correlation_id: 'c0ffee', status: 200 })).toBe(
      '09:05:07 INFO  request answered route=getProspect correlation_id=c0ffee status=200',
    );
  });

  test('pads levels to one width, and shows a cold start only when there is one', () => {
    expect(lineOf(attributes({ logLevel: 'DEBUG', lambdaContext: undefined }))).toBe('09:05:07 DEBUG request answered');
    const cold = attributes();
    if (cold.lambdaContext) cold.lambdaContext.coldStart = true;
    expect(lineOf(cold)).toBe('09:05:07 INFO  request answered cold_start=true');
  });

  test('quotes values with spaces, quotes or equals signs, and writes objects as JSON', () => {
    expect(
      lineOf(attributes({ message: 'Livraison abandonnée' }), {
        event: 'delivery_failed',
        note: 'a b',
        quote: 'say "hi"',
        pair: 'a=b',
        empty: [],
        counts: { changes: 2 },
      }),
    ).toBe(
      '09:05:07 INFO  Livraison abandonnée event=delivery_failed note="a b" quote="say \\"hi\\"" pair="a=b" ' +
        'empty=[] counts={"changes":2}',
    );
  });

  test('drops empty keys as the JSON lines do', () => {
    expect(lineOf(attributes(), { route: undefined, blank: '', none: null })).toBe('09:05:07 INFO  request answered');
  });

  test('writes an error as "Name: message", its stack on the lines below', () => {
    const error = new TypeError('boom');
    const line = lineOf(attributes({ logLevel: 'ERROR', message: 'request failed' }), {
      status: 500,
      ...errorFields(error),
    });
    const [first, ...stack] = line.split('\n');
    expect(first).toBe('09:05:07 ERROR request failed status=500 error="TypeError: boom"');
    expect(stack.length).toBeGreaterThan(0);
    expect(stack[0]).toMatch(/^\s+at /);
  });
});

describe('errorFields', () => {
  test('keeps the name, message and stack only, never what else an error carries', () => {
    const error = Object.assign(new Error('The conditional request failed'), {
      name: 'ConditionalCheckFailedException',
      Item: { email: { S: 'lea@exemple.test' } },
      $metadata: { httpStatusCode: 400 },
      cause: new Error('lea@exemple.test'),
    });
    const fields = errorFields(error);
    expect(Object.keys(fields.error ?? {}).sort()).toEqual(['message', 'name', 'stack']);
    expect(JSON.stringify(fields)).not.toContain('lea@exemple.test');
  });

  test('logs nothing of a thrown value that is not an Error', () => {
    expect(errorFields('lea@exemple.test')).toEqual({});
    expect(errorFields({ email: 'lea@exemple.test' })).toEqual({});
  });
});

describe('the level from POWERTOOLS_LOG_LEVEL', () => {
  test.each([
    ['DEBUG', 'DEBUG'],
    ['debug', 'DEBUG'],
    [' Warn ', 'WARN'],
    ['ERROR', 'ERROR'],
    ['INFO', 'INFO'],
    ['SILENT', 'SILENT'],
    ['verbose', 'INFO'],
    ['TRACE', 'INFO'],
    ['', 'INFO'],
    [undefined, 'INFO'],
  ])('%p is %s', (value, level) => {
    expect(logLevelFrom(value === undefined ? {} : { POWERTOOLS_LOG_LEVEL: value })).toBe(level);
  });
});

describe('the logger of a process', () => {
  const printed = (env: Record<string, string>) =>
    spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        "const { logger } = await import('./lib/observability.ts');" +
          "logger.debug('détail', { route: 'getProspect' }); logger.info('prêt'); logger.warn('attention', { count: 2 });",
      ],
      { cwd: process.cwd(), env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'DEBUG', ...env }, encoding: 'utf8' },
    );

  test('prints readable lines when npm start asks for them: up to INFO on stdout, from WARN on stderr', () => {
    const { stdout, stderr, status } = printed({ CRM_LOG_FORMAT: 'readable' });
    expect(status).toBe(0);
    expect(stdout).toMatch(/^\d\d:\d\d:\d\d DEBUG détail route=getProspect\n\d\d:\d\d:\d\d INFO {2}prêt\n$/);
    expect(stderr).toMatch(/^\d\d:\d\d:\d\d WARN {2}attention count=2\n$/);
  });

  test('prints one JSON object per line otherwise', () => {
    const { stdout, stderr, status } = printed({ CRM_LOG_FORMAT: '' });
    expect(status).toBe(0);
    const lines = [...stdout.trim().split('\n'), ...stderr.trim().split('\n')].map((line) => JSON.parse(line));
    expect(lines).toEqual([
      expect.objectContaining({ level: 'DEBUG', message: 'détail', route: 'getProspect', service: 'crm-ingest' }),
      expect.objectContaining({ level: 'INFO', message: 'prêt' }),
      expect.objectContaining({ level: 'WARN', message: 'attention', count: 2 }),
    ]);
  });
});
