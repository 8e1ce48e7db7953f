import type { CountryCode } from 'libphonenumber-js/min';
import type { PhoneSettings } from './model';
import type * as PhoneLibraryModule from './phone-library';

/**
 * Phone matching (docs/api.md#phone-matching). By default a phone matches only the same string.
 * A workspace that opted in to `e164` compares phones that parse as valid numbers (national formats
 * read with the workspace's region) in their E.164 form: `06 12 34 56 78`, `+33 6 12 34 56 78` and
 * `0033612345678` are one number. libphonenumber-js's `min` metadata validates numbers by their
 * length and leading digits per country, the smallest metadata that still tells a French mobile
 * from a wrong number; only the functions that match phones bundle it.
 */

type PhoneLibrary = typeof PhoneLibraryModule;
let library: PhoneLibrary | undefined;

/**
 * Loads libphonenumber-js on first need: a lead of a workspace matching in E.164, a look-up by
 * phone, the admin's `workspace set`. Bundled, a dynamically imported module stays in the one file
 * but is evaluated only when imported (esbuild, "Code splitting" off: https://esbuild.github.io/api/#splitting),
 * so the cold start of a function whose first call needs no E.164 form skips its ~120 KB of
 * metadata (docs/performance.md).
 */
export async function loadPhoneLibrary(): Promise<void> {
  library ??= await import('./phone-library');
}

function phoneLibrary(): PhoneLibrary {
  if (library === undefined) throw new Error('libphonenumber-js is not loaded: await loadPhoneLibrary() first');
  return library;
}

/** The E.164 form of a phone valid in `region`'s conventions (or in its own international form), else undefined. */
export function e164Of(phone: string, region: string): string | undefined {
  const parsed = phoneLibrary().parsePhoneNumberFromString(phone, isPhoneRegion(region) ? region : undefined);
  return parsed?.isValid() ? parsed.number : undefined;
}

/** A region libphonenumber-js knows (ISO 3166-1 alpha-2, upper case). */
export const isPhoneRegion = (region: string): region is CountryCode =>
  /^[A-Z]{2}$/.test(region) && phoneLibrary().isSupportedCountry(region);

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
