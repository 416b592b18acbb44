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
    if (this.#bytes + size > this.#maxBytes) {
      this.overflow();
      return;
    }
    this.#bytes += size;
    this.#parts.push(text);
    this.#schedule();
  }

  /** Bytes a further write may still take (0 once the cap was reached). */
  left(): number {
    return this.#truncated ? 0 : this.#maxBytes - this.#bytes;
  }

  /**
   * What a write past the cap does, for a line the prelude stopped formatting once it knew the
   * line could not fit (a huge array logged: its text is never built, see prelude.js toJson).
   */
  overflow(): void {
    if (this.#truncated) return;
    this.#truncated = true;
    this.#parts.push(`[runjs] output truncated: the limit of ${this.#maxBytes} bytes per execution was reached (--max-output-bytes)\n`);
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
