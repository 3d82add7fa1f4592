/**
 * Versions recorded with every run and share link. The verifier version
 * changes whenever grading could change: the kernel content or the verifier
 * code's own version number below (bump it with any change to src/core/verify,
 * src/core/c, src/core/dialect semantics or the lemmas).
 */
import { KERNEL } from './kernel/content.ts';

export const APP_VERSION = '0.1.0';
export const VERIFIER_CODE_VERSION = 1;
export const VERIFIER_VERSION = `v${VERIFIER_CODE_VERSION}+k${KERNEL.kernelHash}`;
