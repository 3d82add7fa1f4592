/**
 * Why Z3 cannot run in this browser, in one sentence that names the browser,
 * the reason and what to do (docs/app.md, "When Z3 cannot run"). Used by the
 * worker that loads Z3 (no shared memory, too little memory) and by the page
 * (no cross-origin isolation).
 */

/** The browser and its major version, from a user-agent string, as a person would name it. */
export function browserName(ua: string): string {
  const v = (re: RegExp) => re.exec(ua)?.[1];
  if (v(/Edg\/(\d+)/)) return `Edge ${v(/Edg\/(\d+)/)}`;
  if (v(/Firefox\/(\d+)/)) return `Firefox ${v(/Firefox\/(\d+)/)}`;
  if (v(/(?:Chromium|Chrome)\/(\d+)/)) return `${/Chromium/.test(ua) ? 'Chromium' : 'Chrome'} ${v(/(?:Chromium|Chrome)\/(\d+)/)}`;
  if (/AppleWebKit/.test(ua)) {
    const version = v(/Version\/(\d+(?:\.\d+)?)/);
    if (/iPhone|iPad|iPod/.test(ua)) return `Safari on iOS${version ? ` ${version}` : ''}`;
    if (/Macintosh/.test(ua)) return `Safari${version ? ` ${version}` : ''}`;
    if (/Linux|X11/.test(ua)) return 'a WebKitGTK or WPE browser (Epiphany, MiniBrowser)';
    return 'a WebKit browser';
  }
  return 'this browser';
}

export type Obstacle = 'no-wasm' | 'no-shared-memory' | 'too-little-memory';

/** What to tell the person for each obstacle, in `browser`; `leastMiB` is the smallest memory Z3 can run in. */
export function obstacleSentence(obstacle: Obstacle, browser: string, leastMiB: number): string {
  switch (obstacle) {
    case 'no-wasm':
      return `Z3 cannot run in ${browser}: it has no WebAssembly (or it is switched off); open this page in a current Chrome, Firefox, Edge or Safari.`;
    case 'no-shared-memory':
      return (
        `Z3 cannot run in ${browser}: it cannot share WebAssembly memory with the worker threads Z3 starts ` +
        `(its SharedArrayBuffer is switched off, as in WebKitGTK's builds), so nothing can be verified here; open this page in Chrome, Firefox, Edge or Safari.`
      );
    case 'too-little-memory':
      return `Z3 cannot run in ${browser}: it refused to reserve even ${leastMiB} MiB of memory for Z3; close other tabs or apps and reload, or use a device with more memory.`;
  }
}

/**
 * Can this realm hand a shared WebAssembly memory to a worker? Z3's threads
 * need it. Engines that can do so expose `SharedArrayBuffer` (in an isolated
 * context); WebKitGTK 2.50 hides it, and although it creates shared memories
 * it refuses to send one to a worker (DataCloneError).
 */
export function canShareMemory(): boolean {
  return typeof WebAssembly === 'object' && typeof SharedArrayBuffer === 'function';
}
