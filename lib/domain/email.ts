/**
 * The one rule for what an address is (docs/api.md#e-mail-addresses), on both webhooks and in
 * the seed. When two are the same contact is the markers' rule (`emailKey`, lib/storage/table-items.ts).
 *
 * The shape is the "practical" one zod applies to ASCII (dot-atoms of letters, digits and `_'+-`,
 * a dotted domain, a top-level label of two letters or more), with letters, marks and digits taken
 * from all of Unicode as RFC 6531 allows (`hélène@exemple.fr`, `用户@例子.广告`), and punycode
 * top-level labels (`xn--…`). Quoted local parts and IP-literal domains stay refused: no form sends them.
 */
const atom = String.raw`[\p{L}\p{M}\p{N}_'+\-]`;
const label = String.raw`[\p{L}\p{M}\p{N}][\p{L}\p{M}\p{N}\-]*`;
const emailPattern = new RegExp(
  String.raw`^(?:${atom}+\.)*${atom}*[\p{L}\p{M}\p{N}_+\-]@(?:${label}\.)+(?:[\p{L}\p{M}]{2,}|[xX][nN]--[a-zA-Z0-9\-]+)$`,
  'u',
);

/** Longest address read (RFC 5321's path limit less the angle brackets). */
export const maxEmailLength = 254;

/** Whether `text` (already trimmed) is an address; NFC first, so a decomposed `é` is an `é`. */
export const isEmailAddress = (text: string): boolean =>
  text.length <= maxEmailLength && emailPattern.test(text.normalize('NFC'));

/** The pattern as JSON Schema and OpenAPI validators read it (ECMA-262 with the `u` flag). */
export const emailPatternSource = emailPattern.source;
