/**
 * The two functions of libphonenumber-js phone matching uses, imported by name so that bundling keeps
 * only them, and loaded by `loadPhoneLibrary` (phone.ts) through a dynamic import so that they are
 * evaluated only when needed.
 */
export { isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js/min';
