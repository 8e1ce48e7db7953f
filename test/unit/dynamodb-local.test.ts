import { untilAnswering } from '../../tools/local/dynamodb-local';

/**
 * The wait for DynamoDB Local to answer (`npm start`, jest's global setup) ends when it answers or
 * when its process has exited, never on a clock: a slow JVM start on a loaded machine is not a failure.
 */
const noPause = async () => undefined;

test('asks again for as long as the process lives, however many refusals that takes', async () => {
  let asked = 0;
  const ask = async () => {
    asked += 1;
    if (asked <= 5000) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED' });
    return { TableNames: [] };
  };
  await expect(untilAnswering(ask, () => true, noPause)).resolves.toBe(true);
  expect(asked).toBe(5001);
});

test('stops once the process has exited, asking nothing more', async () => {
  let asked = 0;
  let alive = true;
  const ask = async () => {
    asked += 1;
    // The port was taken: the JVM exits while its endpoint refuses.
    if (asked === 3) alive = false;
    throw new Error('connect ECONNREFUSED 127.0.0.1:8000');
  };
  await expect(untilAnswering(ask, () => alive, noPause)).resolves.toBe(false);
  expect(asked).toBe(3);
});
