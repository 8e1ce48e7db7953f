import {
  findPhoneNumbersInText,
  isSupportedCountry,
  parsePhoneNumberFromString,
  type CountryCode,
} from 'libphonenumber-js/min';
import type { PhoneSettings } from './model';

/**
 * Phone matching (docs/api.md#phone-matching). By default a phone matches only the same string.
 * A workspace that opted in to `e164` compares phones that parse as valid numbers (national formats
 * read with the workspace's region) in their E.164 form: `06 12 34 56 78`, `+33 6 12 34 56 78` and
 * `0033612345678` are one number. libphonenumber-js's `min` metadata validates numbers by their
 * length and leading digits per country, the smallest metadata that still tells a French mobile
 * from a wrong number; only the functions that match phones bundle it, and they load this module
 * by a dynamic import (`loadPhoneMatching`, lead/lead.ts) so that its ~120 KB of metadata is
 * evaluated only when needed. Its two functions are imported by name, so that bundling keeps only them.
 */

/** The E.164 form of a phone valid in `region`'s conventions (or in its own international form), else undefined. */
export function e164Of(phone: string, region: string): string | undefined {
  const parsed = parsePhoneNumberFromString(phone, isPhoneRegion(region) ? region : undefined);
  return parsed?.isValid() ? parsed.number : undefined;
}

/** A region libphonenumber-js knows (ISO 3166-1 alpha-2, upper case). */
export const isPhoneRegion = (region: string): region is CountryCode =>
  /^[A-Z]{2}$/.test(region) && isSupportedCountry(region);

/**
 * What a lead's phone is matched by in a workspace: its E.164 form when the workspace matches in
 * E.164 and the phone parses as a valid number; otherwise the phone as sent.
 */
export function phoneMatchKey(
  phone: string,
  settings: PhoneSettings,
): { kind: 'e164'; value: string } | { kind: 'exact'; value: string } {
  const e164 = settings.phone_matching === 'e164' ? e164Of(phone, settings.phone_region) : undefined;
  return e164 === undefined ? { kind: 'exact', value: phone } : { kind: 'e164', value: e164 };
}

/**
 * The E.164 form of every valid phone number written in `text` (national formats read in `region`'s conventions): what
 * an erasure looks for in the kept body of a failed webhook call, whatever spacing or prefix the form sent.
 */
export function phonesInText(text: string, region: string): string[] {
  return findPhoneNumbersInText(text, isPhoneRegion(region) ? region : undefined).map((found) => found.number.number);
}
