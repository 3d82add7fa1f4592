/** The About page's engine checks: a Z3 self-test and a cancellable long query. */
import type { SelfTestResult } from '../../core/service/contract.ts';
import { CancelledError } from '../../worker/web-pool.ts';
import type { VerifierService } from './verifier.svelte.ts';

export type StressState = 'idle' | 'running' | 'cancelled' | 'sat' | 'unsat' | 'unknown' | 'error';

const LANE = 'diagnostics';

export class DiagnosticsState {
  selfTest = $state<SelfTestResult | undefined>(undefined);
  selfTestError = $state('');
  selfTestRunning = $state(false);
  stress = $state<StressState>('idle');
  stressStarted = $state(0);

  constructor(private readonly verifier: VerifierService) {}

  async runSelfTest(): Promise<void> {
    this.selfTestRunning = true;
    this.selfTestError = '';
    this.selfTest = undefined;
    try {
      await this.verifier.warm();
      this.selfTest = await this.verifier.selfTest();
    } catch (e) {
      this.selfTestError = e instanceof Error ? e.message : String(e);
    } finally {
      this.selfTestRunning = false;
    }
  }

  /** Starts a query that takes Z3 minutes; `cancelStress` stops it by terminating the worker. */
  async runStress(seconds = 300): Promise<void> {
    this.stress = 'running';
    this.stressStarted = Date.now();
    try {
      await this.verifier.warm();
      this.stress = await this.verifier.stress(seconds, LANE);
    } catch (e) {
      this.stress = e instanceof CancelledError ? 'cancelled' : 'error';
    }
  }

  cancelStress(): void {
    this.verifier.cancel(LANE);
  }
}
