// The strings of the app's language. English only for now; a language is added as a file shaped like en.ts.
import { en, type Messages } from './en.ts';

export type { Messages } from './en.ts';
export const t: Messages = en;
