// Console output on its way to the supervisor: coalesced per event-loop turn so a chatty script
// sends few IPC messages, yet every line leaves the worker within one turn of being written
// (output stays readable while the run goes on). Output beyond the run's byte cap is dropped
// after one notice line, so a print loop cannot flood the supervisor. What is still pending when
// the run ends travels in the result message (take()).

export class OutputBuffer {
  readonly #send: (data: string) => void;
  readonly #maxBytes: number;
  #parts: string[] = [];
  #bytes = 0;
  #truncated = false;
  #scheduled = false;
  /** When the oldest pending part was written (performance.now()). */
  #since = 0;

  constructor(send: (data: string) => void, maxBytes: number) {
    this.#send = send;
    this.#maxBytes = maxBytes;
  }

  write(text: string): void {
    if (this.#truncated) return;
    const size = Buffer.byteLength(text);
    if (size > this.#maxBytes) this.#dropLine();
    else if (this.#bytes + size > this.#maxBytes) this.#truncate();
    else this.#append(text, size);
  }

  /** The most bytes one write can ever take (0 once the output is truncated). */
  lineCap(): number {
    return this.#truncated ? 0 : this.#maxBytes;
  }

  /**
   * A write of `minBytes` or more that the prelude did not build: it stopped formatting a line
   * once the line was sure to pass lineCap() (a huge array logged; see prelude.js toJson).
   */
  overflow(minBytes: number): void {
    if (this.#truncated) return;
    if (minBytes > this.#maxBytes) this.#dropLine();
    else this.#truncate();
  }

  // A single write longer than the whole cap could never be shown: it is replaced by a notice and
  // the output goes on (what follows, e.g. a test harness's summary line, still fits). A write
  // that only crosses the cap ends the output, so a print loop cannot flood the supervisor.
  #dropLine(): void {
    const notice = `[runjs] output line dropped: it is longer than the limit of ${this.#maxBytes} bytes per execution (--max-output-bytes)\n`;
    if (this.#bytes + notice.length > this.#maxBytes) this.#truncate();
    else this.#append(notice, notice.length);
  }

  #truncate(): void {
    this.#truncated = true;
    this.#parts.push(`[runjs] output truncated: the limit of ${this.#maxBytes} bytes per execution was reached (--max-output-bytes)\n`);
    this.#schedule();
  }

  #append(text: string, size: number): void {
    this.#bytes += size;
    this.#parts.push(text);
    this.#schedule();
  }

  #schedule(): void {
    if (!this.#scheduled) {
      this.#scheduled = true;
      this.#since = performance.now();
      setImmediate(() => this.flush());
    }
  }

  /**
   * Sends pending output now if it has waited `ms` or more. For engines that block the thread in
   * guest code (QuickJS), where the setImmediate flush cannot run until the guest yields.
   */
  flushIfOlderThan(ms: number): void {
    if (this.#parts.length > 0 && performance.now() - this.#since >= ms) this.flush();
  }

  flush(): void {
    const data = this.take();
    if (data !== undefined) this.#send(data);
  }

  /** The pending output, now no longer pending (the run's end sends it with the result); undefined when none. */
  take(): string | undefined {
    this.#scheduled = false; // a flush already queued finds nothing and sends nothing
    if (this.#parts.length === 0) return undefined;
    const data = this.#parts.join('');
    this.#parts = [];
    return data;
  }
}
