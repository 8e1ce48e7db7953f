import { randomUUID } from 'node:crypto';
import { useSeededApi } from '../support/seeded-api';

/** Whatever the body, a webhook answer stays small and can be kept for replay (docs/api.md#bounded-warnings). */
const world = useSeededApi();

const lead = (body: string, headers: Record<string, string> = {}) =>
  world.api.request('POST', '/webhooks/ingest-lead', {
    query: { endpoint_id: world.ws.webhook?.endpoint_id as string },
    headers: { Authorization: `Bearer ${world.ws.webhook?.token}`, 'Content-Type': 'application/json', ...headers },
    body,
  });

/** About `bytes` of JSON: an e-mail and unknown fields with names of `nameLength` characters. */
function bodyOfUnknownFields(bytes: number, nameLength: number): string {
  const fields: Record<string, string> = { email: `${randomUUID()}@borne.test` };
  let size = Buffer.byteLength(JSON.stringify(fields));
  for (let index = 0; ; index += 1) {
    const name = `${String(index).padStart(6, '0')}_${'é'.repeat(nameLength)}`;
    const added = Buffer.byteLength(JSON.stringify({ [name]: 'x' })) - 1;
    if (size + added > bytes) return JSON.stringify(fields);
    fields[name] = 'x';
    size += added;
  }
}

describe('a lead body of unknown fields', () => {
  it.each([
    ['short names', 12],
    ['long names', 2_000],
  ])('of 250 KB (%s) answers under 8 KB, with 20 named and one counting the rest', async (_label, nameLength) => {
    const body = bodyOfUnknownFields(250 * 1024, nameLength);
    expect(Buffer.byteLength(body)).toBeGreaterThan(245 * 1024);
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(250 * 1024);
    const key = randomUUID();
    const response = await lead(body, { 'Idempotency-Key': key });
    expect(response.status).toBe(200);
    expect(Buffer.byteLength(response.text)).toBeLessThan(8 * 1024);
    const { warnings } = response.body as { warnings: string[] };
    expect(warnings).toHaveLength(21);
    expect(warnings.at(-1)).toMatch(/^\d+ autres champs ignorés ne sont pas nommés ici\.$/);
    const replay = await lead(body, { 'Idempotency-Key': key });
    expect(replay.text).toBe(response.text);
  });
});
