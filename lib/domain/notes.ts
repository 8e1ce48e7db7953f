/** Note content is limited in Unicode code points: an emoji counts as one (docs/api.md#add-a-note). */
export const maxNoteLength = 10_000;

export const codePointLength = (text: string): number => [...text].length;
