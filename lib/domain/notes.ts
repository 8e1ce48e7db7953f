/** Note content is limited in Unicode code points: an emoji counts as one (decisions 3). */
export const maxNoteLength = 10_000;

export const codePointLength = (text: string): number => [...text].length;
