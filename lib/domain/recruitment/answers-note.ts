import { InvalidInputError } from '../model';
import { codePointLength, maxNoteLength } from '../notes';
import { messages } from '../../messages';

const tooLarge = messages.recruitment.answersTooLarge(maxNoteLength);

/** One line per pair, `Question : Réponse` (docs/api.md#answers-note). */
export function answersNote(answers: readonly [string, string][]): string | undefined {
  if (answers.length === 0) return undefined;
  const content = answers.map(([question, answer]) => `${question} : ${answer}`).join('\n');
  if (codePointLength(content) > maxNoteLength)
    throw new InvalidInputError(tooLarge, { field: 'answers', message: tooLarge });
  return content;
}
