/**
 * A function module for the local Lambda runtime's own tests (tools/local/server.ts loads it as it
 * loads functions/*.ts): each invocation sleeps as long as its event says, and every instance its
 * factory builds is counted, so a test sees when the runtime starts the function anew.
 */
export const instances = { built: 0 };

export const createHandler = () => {
  instances.built += 1;
  return async (event: { sleepMs: number }) => {
    await new Promise((resolve) => setTimeout(resolve, event.sleepMs));
    return { statusCode: 200, body: '{"slept":true}' };
  };
};
