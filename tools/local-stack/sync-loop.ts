// The polling loop of the local stack's controllers (local-kubelet.ts, service-network.ts): one
// sync now, the next one a period after it ended — never two at once, however long one takes —
// until stopped. A failed sync is reported and the loop goes on, as a controller's would.

export class SyncLoop {
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private current: Promise<void> = Promise.resolve();

  constructor(
    private readonly sync: () => Promise<void>,
    private readonly periodMs: number,
    private readonly failed: (message: string) => void,
  ) {}

  start(): this {
    const tick = async () => {
      if (this.stopped) return;
      this.current = this.sync().catch((e) => this.failed(`sync failed: ${(e as Error).message}`));
      await this.current;
      if (!this.stopped) this.timer = setTimeout(() => void tick(), this.periodMs);
    };
    void tick();
    return this;
  }

  /** Ends the loop; resolves once a sync in progress has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.current;
  }
}
