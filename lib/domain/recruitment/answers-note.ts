import { InvalidInputError } from '../../errors';
import { codePointLength, maxNoteLength } from '../notes';

const tooLarge = `Les réponses (« answers ») dépassent la taille d'une note (${maxNoteLength} caractères).`;

/** Decisions 4: one line per pair, `Question : Réponse`. */
export function answersNote(answers: readonly [string, string][]): string | undefined {
  if (answers.length === 0) return undefined;
  const content = answers.map(([question, answer]) => `${question} : ${answer}`).join('\n');
  if (codePointLength(content) > maxNoteLength)
    throw new InvalidInputError(tooLarge, { field: 'answers', message: tooLarge });
  return content;
}
