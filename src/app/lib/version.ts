/** The app's version: the core's one (src/core/version.ts, from package.json). */
export { APP_VERSION } from '../../core/version.ts';
