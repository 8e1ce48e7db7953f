import { execFileSync } from 'node:child_process';
import { adminCommand, shellAssignment } from '../../tools/local/admin-command';

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

describe("npm start's export line for the README's examples", () => {
  test.each(['crm_key_aB-9_x', "9a+!QDX?p'U#%*=@_", 'un espace et un $HOME', 'http://127.0.0.1:3000'])(
    'a value reads back unchanged in a shell: %s',
    (value) => {
      const printed = execFileSync('bash', ['-c', `${shellAssignment('VALUE', value)}; printf %s "$VALUE"`]);
      expect(printed.toString('utf8')).toBe(value);
    },
  );
});
