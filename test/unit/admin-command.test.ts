import { adminCommand } from '../../tools/local/admin-command';

describe("npm start's printed admin commands", () => {
  test('with nothing set, the bare command', () => {
    expect(adminCommand('workspace list', {})).toBe('npm run --silent admin -- workspace list');
  });

  test('name the tables and the API npm start was started with, quoted for a shell', () => {
    const env = { DYNAMODB_LOCAL_PORT: '8123', PORT: '4000', TABLE_NAME: "crm l'essai", HOME: '/root' };
    expect(adminCommand('workspace list', env)).toBe(
      `DYNAMODB_LOCAL_PORT=8123 TABLE_NAME='crm l'\\''essai' PORT=4000 npm run --silent admin -- workspace list`,
    );
  });

  test('an empty variable counts as unset, as the command line reads it', () => {
    expect(adminCommand('workspace list', { PORT: '' })).toBe('npm run --silent admin -- workspace list');
  });
});
