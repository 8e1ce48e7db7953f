import '../../node-major.js'; // first: on another Node major, nothing else runs
import { writeFile } from 'node:fs/promises';
import { format, resolveConfig } from 'prettier';
import { apiTypesFile, settingsApiTypes } from './api-types';

/** `npm run app:types`: the settings page's API types, formatted as the repository's Prettier check wants them. */
const file = apiTypesFile.pathname;
await writeFile(file, await format(await settingsApiTypes(), { ...(await resolveConfig(file)), filepath: file }));
console.log('app/src/settings-api.d.ts écrit.');
