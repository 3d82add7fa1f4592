/** A lesson of the course: prose (trusted HTML written in this folder) and its exercises. Title and summary live in catalog.ts. */
import type { Exercise } from './exercise.ts';

export interface Lesson {
  readonly id: string;
  /** Trusted HTML, our own text. */
  readonly body: string;
  readonly exercises: readonly Exercise[];
}
