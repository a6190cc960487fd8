/**
 * The Pause / Resume / Cancel buttons' actions of a lab state that hands them straight to its runner (the Open-world and
 * Your-classes labs): one base class, so that the labs keep only what differs (how they run, step and play).
 */
export interface PausableRunner {
  pause(): void;
  resume(): void;
  cancel(): void;
}

export abstract class RunnerLab<R extends PausableRunner> {
  constructor(protected readonly runner: R) {}
  pause(): void {
    this.runner.pause();
  }
  resume(): void {
    this.runner.resume();
  }
  cancel(): void {
    this.runner.cancel();
  }
}
