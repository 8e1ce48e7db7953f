import fc from 'fast-check';

/**
 * Hostile inputs for the fuzz tests: unicode and binary text, names that reach into prototypes,
 * wrong types, huge and deeply nested values, broken JSON, form bodies, invalid UTF-8 and invalid
 * percent-encoding. Bodies are built as raw text or bytes, so a key like `__proto__` reaches the
 * wire as written.
 */

const trickyNames = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '__defineGetter__',
  '',
  ' ',
  'answers[__proto__]',
  'tag_ids[]',
  'a.b',
  '$where',
] as const;

const trickyStrings = [
  '\u0000',
  '\uFEFF',
  '\u202E',
  '\uD800',
  '\uDFFF',
  '%',
  '%ZZ',
  '%E0%A4%A',
  '%C3%28',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '${jndi:ldap://x}',
  'NaN',
  'null',
  'undefined',
  '1e999',
  '-0',
  '0x10',
  'Closé',
  'CLOSÉ',
  'VIP',
  '2026-02-30T10:00:00Z',
  '9999-12-31T23:59:59.999999999-23:59',
  '0000-01-01T00:00:00Z',
  'a@b',
  'a@b.fr',
  ' a@b.fr ',
  '+33612345678',
] as const;

const text: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 3, arbitrary: fc.constantFrom(...trickyStrings, ...trickyNames) },
  { weight: 2, arbitrary: fc.emailAddress() },
  { weight: 1, arbitrary: fc.string({ minLength: 250, maxLength: 12_000 }) },
);

/** encodeURIComponent refuses lone surrogates: they travel as U+FFFD in a URL (bodies keep them). */
const percentEncoded = (value: string): string => encodeURIComponent(value.replace(/[\uD800-\uDFFF]/g, '\uFFFD'));

/** A value nested `depth` times, as JSON text (JSON.parse must not be the only thing that copes). */
const deeplyNested = (depth: number, kind: 'array' | 'object'): string =>
  kind === 'array' ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

const nestedText = fc
  .record({
    depth: fc.oneof(fc.integer({ min: 1, max: 50 }), fc.constantFrom(5_000, 100_000)),
    kind: fc.constantFrom<'array' | 'object'>('array', 'object'),
  })
  .map(({ depth, kind }) => deeplyNested(depth, kind));

/** Any JSON value, as text: scalars of every type, arrays, objects, and deep nesting. */
const jsonValueText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: text.map((value) => JSON.stringify(value)) },
  { weight: 2, arbitrary: fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null)).map(String) },
  { weight: 1, arbitrary: fc.constantFrom('1e999', '-1e999', '123456789012345678901234567890', '-0', '0.1e-400') },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: fc.array(text, { maxLength: 60 }).map((values) => JSON.stringify(values)) },
  { weight: 1, arbitrary: nestedText },
);

const objectText = (fields: readonly (readonly [string, string])[]) =>
  `{${fields.map(([name, value]) => `${JSON.stringify(name)}:${value}`).join(',')}}`;

/** A field of the route (most often) or any name, with a hostile value, as JSON text. */
const hostileField = (fieldNames: readonly string[]) =>
  fc.tuple(
    fieldNames.length === 0
      ? text
      : fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...fieldNames) }, { weight: 1, arbitrary: text }),
    fc.oneof(
      { weight: 2, arbitrary: text.map((value) => JSON.stringify(value)) },
      { weight: 1, arbitrary: jsonValueText },
    ),
  );

/** A JSON object written field by field: duplicate keys and `__proto__` survive as sent. */
const jsonObjectText = (fieldNames: readonly string[]): fc.Arbitrary<string> =>
  fc.array(hostileField(fieldNames), { maxLength: 6 }).map(objectText);

/** A body the route accepts, with one to three fields replaced or added (the last of duplicate keys wins). */
const almostValidText = (fieldNames: readonly string[], valid: Record<string, unknown>): fc.Arbitrary<string> =>
  fc
    .array(hostileField(fieldNames), { minLength: 1, maxLength: 3 })
    .map((fields) =>
      objectText([...Object.entries(valid).map(([name, value]) => [name, JSON.stringify(value)] as const), ...fields]),
    );

const formText = (fieldNames: readonly string[]): fc.Arbitrary<string> =>
  fc
    .array(
      fc.tuple(
        fc.oneof(fc.constantFrom(...fieldNames, 'answers[Question]', 'answers[]', 'tag_ids[]'), text),
        fc.oneof(text.map(percentEncoded), fc.constantFrom('%', '%ZZ', '%E0%A4%A', '%C3%28', '+', '&&', '==')),
      ),
      { maxLength: 10 },
    )
    .map((pairs) => pairs.map(([name, value]) => `${percentEncoded(name)}=${value}`).join('&'));

export type FuzzBody = { body: string | Uint8Array | undefined; contentType: string | undefined };

const invalidUtf8 = fc.constantFrom(
  Uint8Array.from([0x7b, 0x22, 0x65, 0x6d, 0x61, 0x69, 0x6c, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
  Uint8Array.from([0xff, 0xfe, 0xfd]),
  Uint8Array.from([0xed, 0xa0, 0x80]),
  Uint8Array.from([0xf0, 0x28, 0x8c, 0x28]),
);

const contentTypes = [
  'application/json',
  'application/json; charset=utf-8',
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=ISO-8859-1',
  'text/plain',
  'multipart/form-data; boundary=x',
  'application/xml',
  ';;;',
] as const;

/** Request bodies for a route whose fields are `fieldNames` and which accepts `valid`. */
export const fuzzBody = (fieldNames: readonly string[], valid: Record<string, unknown>): fc.Arbitrary<FuzzBody> =>
  fc.record({
    body: fc.oneof(
      { weight: 6, arbitrary: almostValidText(fieldNames, valid) },
      { weight: 4, arbitrary: jsonObjectText(fieldNames) },
      { weight: 2, arbitrary: formText(fieldNames) },
      { weight: 2, arbitrary: jsonValueText },
      { weight: 1, arbitrary: text },
      { weight: 1, arbitrary: invalidUtf8 },
      { weight: 1, arbitrary: fc.constant(undefined) },
    ),
    contentType: fc.option(fc.constantFrom(...contentTypes), { nil: undefined }),
  });

/** Header values as HTTP carries them (latin-1, no control characters). */
const headerValue = fc.oneof(
  fc.string({
    unit: fc
      .oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff }))
      .map((code) => String.fromCharCode(code)),
    maxLength: 40,
  }),
  fc.string({
    unit: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)),
    minLength: 256,
    maxLength: 3_000,
  }),
);
const headerName = fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,24}$/);

/** Extra headers, including a few the service reads, with hostile values. */
export const fuzzHeaders: fc.Arbitrary<Record<string, string>> = fc
  .array(
    fc.tuple(
      fc.oneof(
        { weight: 2, arbitrary: headerName },
        {
          weight: 1,
          arbitrary: fc.constantFrom('Idempotency-Key', 'X-Webhook-Token', 'Content-Length-Fake', 'X-Forwarded-For'),
        },
      ),
      headerValue,
    ),
    { maxLength: 4 },
  )
  .map((pairs) => Object.fromEntries(pairs.map(([name, value]) => [name, value.trim()])));

/** A credential the way a careless or hostile client sends one. */
export const fuzzAuthorization = fc.oneof(
  headerValue,
  headerValue.map((value) => `Bearer ${value}`),
  fc.constantFrom('Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', 'bearer crm_key_x', 'Bearer crm_whk_x'),
);

/** One path segment as it goes on the wire: encoded text, or raw bytes of broken percent-encoding. */
export const fuzzSegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: text.filter((value) => value !== '').map(percentEncoded) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('%', '%ZZ', '%E0%A4%A', '%C3%28', '%00', '%2F', '..', '.', '%2e%2e', ';x', '%F0%9F%98'),
  },
  { weight: 1, arbitrary: fc.uuid().map((id) => id.toUpperCase()) },
  { weight: 1, arbitrary: fc.uuid() },
);

/** Query parameters, credentials and endpoint_id among them, with hostile names and values. */
export const fuzzQuery: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom('endpoint_id', 'token', 'api_key', 'key', 'x'), text.map(percentEncoded)),
      fc.oneof(text.map(percentEncoded), fc.uuid(), fc.constantFrom('%', '%ZZ', '%C3%28', '')),
    ),
    { maxLength: 3 },
  )
  .map((pairs) => pairs.map(([name, value]) => `${name}=${value}`).join('&'));
