import { readFileSync } from 'node:fs';
import { messages } from '../../lib/messages';

/**
 * One message catalogue: every message the OpenAPI document shows as an example (error
 * `message`, `details.message`, `warnings`) must be one the service can send, that is an entry of
 * lib/messages.ts, literally or with its blanks filled.
 */
const blank = (index: number) => `\uE000${index}\uE000`;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Each catalogue entry as a pattern: a string matches itself, a function its output with any values. */
function patterns(entry: unknown): RegExp[] {
  if (typeof entry === 'string') return [new RegExp(`^${escape(entry)}$`)];
  if (typeof entry === 'function') {
    const template = String((entry as (...args: string[]) => string)(...[0, 1, 2].map(blank)));
    return [new RegExp(`^${escape(template).replace(/\uE000\d\uE000/g, '.+')}$`, 's')];
  }
  if (typeof entry === 'object' && entry !== null) return Object.values(entry).flatMap(patterns);
  return [];
}

/** `invalidField(name, reason)` quotes a rule's reason: the pair is one message the service sends. */
const composed = Object.values(messages.rules).flatMap((rule) =>
  patterns(rule).map((reason) => new RegExp(`^Champ « .+ » invalide : ${reason.source.slice(1, -1)}\\.$`, 's')),
);
const catalogue = [...patterns(messages), ...composed];

function documentedMessages(node: unknown, key = ''): string[] {
  if (Array.isArray(node)) return node.flatMap((item) => documentedMessages(item, key));
  if (typeof node === 'object' && node !== null) {
    return Object.entries(node).flatMap(([name, value]) => documentedMessages(value, name));
  }
  return typeof node === 'string' && (key === 'message' || key === 'warnings') ? [node] : [];
}

const document: unknown = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8'));
const documented = [...new Set(documentedMessages(document))];

test('the document shows examples of messages', () => {
  expect(documented.length).toBeGreaterThan(25);
});

test.each(documented)('the documented message %j is one the service can send', (message) => {
  expect(catalogue.some((pattern) => pattern.test(message))).toBe(true);
});

test('a message the service cannot send is caught', () => {
  const drifted = "Étape « Rappel » introuvable : donnez l'identifiant d'une étape de l'espace.";
  expect(catalogue.some((pattern) => pattern.test(drifted))).toBe(false);
});
