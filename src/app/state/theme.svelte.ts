/**
 * Light or dark: follows the system (prefers-color-scheme) until the user
 * picks one with the toggle; the pick is remembered in localStorage.
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

  /** Cycles system -> light -> dark -> system. */
  cycle(): void {
    this.choice = this.choice === 'system' ? 'light' : this.choice === 'light' ? 'dark' : 'system';
    localStorage.setItem(KEY, this.choice);
  }
}

export const theme = new Theme();
