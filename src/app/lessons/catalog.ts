/**
 * The course: the lesson files under course/ (`NN-name.md`, in the order of
 * their names; docs/course.md), read by lesson.ts: the front matters (what
 * the lesson list shows) when the app starts, a whole lesson when it is
 * opened. A malformed file is a LessonFileError naming the file and line;
 * test/app/lessons/ reads every file in Node, so one never ships.
 */
import { type Lesson, type LessonHead, readCourse } from './lesson.ts';

/** A lesson in the lesson list. */
export interface LessonEntry extends LessonHead {
  readonly load: () => Promise<Lesson>;
}

// Vite inlines every lesson file's text here (in Node tests too, through vitest).
const FILES = import.meta.glob<string>('./course/*.md', { query: '?raw', import: 'default', eager: true });

export const COURSE: readonly LessonEntry[] = readCourse(
  // Errors name a file by its path in the repository.
  Object.fromEntries(Object.entries(FILES).map(([path, text]) => [path.replace(/^\.\//, 'src/app/lessons/'), text])),
).map(({ head, lesson }) => ({ ...head, load: async () => lesson() }));

export function findLesson(id: string): LessonEntry | undefined {
  return COURSE.find((e) => e.id === id);
}
