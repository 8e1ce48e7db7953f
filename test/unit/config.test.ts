import { loadConfig, loadSecretsTableName } from '../../lib/storage/client';

/**
 * The signing-secrets table's name (docs/adr/0012-signing-secrets-table.md): read once at cold
 * start by the functions that sign and by the admin command line, checked like TABLE_NAME.
 */
const local = { DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000', TABLE_NAME: 'crm-local' };

test('on DynamoDB Local it defaults to <TABLE_NAME>-secrets', () => {
  expect(loadSecretsTableName(local)).toBe('crm-local-secrets');
  expect(loadSecretsTableName({ DYNAMODB_ENDPOINT: local.DYNAMODB_ENDPOINT })).toBe('crm-local-secrets');
});

test('SECRETS_TABLE_NAME, when set, is used as it is', () => {
  expect(loadSecretsTableName({ ...local, SECRETS_TABLE_NAME: 'Crm-prod-SigningSecrets.1_a' })).toBe(
    'Crm-prod-SigningSecrets.1_a',
  );
  expect(loadSecretsTableName({ TABLE_NAME: 'Crm-prod-Table', SECRETS_TABLE_NAME: 'Crm-prod-Secrets' })).toBe(
    'Crm-prod-Secrets',
  );
});

test('on AWS (no endpoint) nothing is guessed: a missing SECRETS_TABLE_NAME fails at cold start', () => {
  expect(() => loadSecretsTableName({ TABLE_NAME: 'Crm-prod-Table' })).toThrow(
    'Configuration invalide : SECRETS_TABLE_NAME',
  );
});

test.each([
  ['the main table itself, whose stream would carry every secret', 'crm-local'],
  ['a name DynamoDB refuses (a space)', 'crm secrets'],
  ['a name DynamoDB refuses (too short)', 'ab'],
  ['a name DynamoDB refuses (256 characters)', 'a'.repeat(256)],
])('refuses %s', (_, name) => {
  expect(() => loadSecretsTableName({ ...local, SECRETS_TABLE_NAME: name })).toThrow(
    'Configuration invalide : SECRETS_TABLE_NAME',
  );
});

test('the main table’s configuration is read once and can be passed in', () => {
  const config = { ...loadConfig(local), tableName: 'crm-other' };
  expect(loadSecretsTableName(local, config)).toBe('crm-other-secrets');
});
