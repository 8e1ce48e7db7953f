import { isLocalServer } from '../../app/src/local-server';

/**
 * Where the settings page believes it is served from (app/src/local-server.ts), which decides what its reset screen
 * says of the code: `npm start`'s http on this machine, or API Gateway's https (docs/api.md#settings-page).
 */
describe('the settings page served by npm start or by API Gateway', () => {
  test.each(['http://127.0.0.1:3000/app/', 'http://localhost:3000/app/'])('%s is the local server', (address) => {
    expect(isLocalServer(new URL(address))).toBe(true);
  });

  test.each([
    'https://abc123.execute-api.eu-west-3.amazonaws.com/prod/app/',
    'https://api.example.com/crm/app/',
    // https on this machine is a tunnel or a proxy in front of it, not npm start's own address.
    'https://127.0.0.1:3000/app/',
    'http://192.168.1.20:3000/app/',
  ])('%s is not', (address) => {
    expect(isLocalServer(new URL(address))).toBe(false);
  });
});
