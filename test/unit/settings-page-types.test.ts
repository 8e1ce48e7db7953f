import { readFile } from 'node:fs/promises';
import { format, resolveConfig } from 'prettier';
import { apiTypesFile, settingsApiTypes } from '../../tools/app/api-types';

/**
 * The settings page's client is typed by app/src/settings-api.d.ts, generated from the OpenAPI document of the
 * running code (`npm run app:types`): a route, a body or an answer changed without the page's types following it
 * fails here, and `tsc -p app` (npm test) then fails on every call the change breaks.
 */
test('the page’s API types are those of the OpenAPI document, settings paths only', async () => {
  const file = apiTypesFile.pathname;
  const fresh = await format(await settingsApiTypes(), { ...(await resolveConfig(file)), filepath: file });
  const committed = await readFile(file, 'utf8');
  expect(committed === fresh).toBe(true);
  expect(committed).toContain("'/workspaces/{workspace_id}/tags'");
  expect(committed).not.toContain("'/pipelines'");
  expect(committed).not.toContain("'/webhooks/ingest-lead'");
});
