export default async function globalTeardown() {
  await globalThis.__identityProvider__?.stop();
  await globalThis.__dynamoDbLocal__?.stop();
}
