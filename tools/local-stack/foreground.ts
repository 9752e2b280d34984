// Keeps a harness in the foreground (`npm run dev-cluster`, `npm run node-cluster`) until Ctrl-C,
// SIGTERM or SIGHUP, or until one of its components dies; then stops it once and exits. A second
// signal while stopping exits at once (what is left is cleaned up by the watchdog or the next start).
export interface ForegroundOptions {
  /** Stops everything; `why` says what happened, e.g. "SIGINT received". */
  stop: () => Promise<void>;
  /** "the control plane", "the node and the control plane" */
  what: string;
  /** Printed after a successful stop. */
  stopped: string;
  /** Printed when a second signal interrupts the stop. */
  leftover: string;
  /** A description (with its log tail) of the first component that died, if any. */
  deadComponent: () => string | undefined;
}

export function runInForeground(opts: ForegroundOptions): void {
  let stopping = false;
  const stop = async (why: string, code: number) => {
    if (stopping) return;
    stopping = true;
    clearInterval(health);
    process.stdout.write(`\n${why}; stopping ${opts.what}...\n`);
    await opts.stop();
    process.stdout.write(`${opts.stopped}\n`);
    process.exit(code);
  };
  const onSignal = (sig: NodeJS.Signals) => {
    if (stopping) {
      process.stderr.write(`${sig} again: exiting now (${opts.leftover})\n`);
      process.exit(130);
    }
    void stop(`${sig} received`, 0);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);
  // Keeps the process alive and notices a component that died.
  const health = setInterval(() => {
    const dead = opts.deadComponent();
    if (dead) {
      process.stderr.write(`\n${dead}\n`);
      void stop('a component died', 1);
    }
  }, 2000);
}
