/**
 * Light or dark: follows the system (prefers-color-scheme) until the user
 * picks one with the toggle; the pick is remembered in localStorage. The
 * toggle goes system -> the other theme -> the system's theme -> system.
 */
export type ThemeChoice = 'system' | 'light' | 'dark';

const KEY = 'osvlab.theme';

class Theme {
  choice = $state<ThemeChoice>('system');
  private systemDark = $state(false);
  readonly dark = $derived(this.choice === 'dark' || (this.choice === 'system' && this.systemDark));

  constructor() {
    if (typeof window === 'undefined') return;
    const saved = localStorage.getItem(KEY);
    if (saved === 'light' || saved === 'dark' || saved === 'system') this.choice = saved;
    const mq = window.matchMedia('(prefers-color-scheme: dark)');
    this.systemDark = mq.matches;
    mq.addEventListener('change', (e) => (this.systemDark = e.matches));
  }

  /**
   * What the toggle picks next: from "system" the theme the system does not
   * show (so the first click always changes what is on screen), then the
   * other one, then back to following the system.
   */
  get next(): ThemeChoice {
    const other: ThemeChoice = this.systemDark ? 'light' : 'dark';
    if (this.choice === 'system') return other;
    return this.choice === other ? (this.systemDark ? 'dark' : 'light') : 'system';
  }

  /** Steps to `next`. */
  cycle(): void {
    this.choice = this.next;
    localStorage.setItem(KEY, this.choice);
  }
}

export const theme = new Theme();
