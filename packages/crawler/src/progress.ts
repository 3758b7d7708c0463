// Progress on stderr for long runs, on a terminal only: in a pipe, a file or CI nothing is drawn, so
// stderr keeps only the messages meant to be read (and machine output on stdout is never mixed in).
import cliProgress from 'cli-progress';
import type { Io } from './io.js';

export interface Progress {
  /** Starts (or restarts) the bar for a phase of `total` steps. */
  phase(label: string, total: number): void;
  /** Moves the current phase to `value` steps (or `total`, when omitted). */
  update(value?: number): void;
  /** Removes the bar. */
  stop(): void;
}

const silent: Progress = { phase: () => undefined, update: () => undefined, stop: () => undefined };

export function createProgress(io: Io): Progress {
  if (io.stderrStream === undefined || io.stderrStream.isTTY !== true) return silent;
  const bar = new cliProgress.SingleBar(
    {
      stream: io.stderrStream,
      format: '{phase} [{bar}] {value}/{total}',
      clearOnComplete: true,
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  let total = 0;
  return {
    phase(label, steps) {
      total = steps;
      if (started) {
        bar.setTotal(steps);
        bar.update(0, { phase: label });
      } else {
        bar.start(steps, 0, { phase: label });
        started = true;
      }
    },
    update(value) {
      if (started) bar.update(value ?? total);
    },
    stop() {
      if (started) bar.stop();
      started = false;
    },
  };
}
