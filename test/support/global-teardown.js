export default async function globalTeardown() {
  await globalThis.__dynamoDbLocal__?.stop();
}
