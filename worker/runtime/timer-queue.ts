// A run's timers and immediates, delivered in the order Node's event loop runs them. A timeout is
// due `ms` after it was set (Node stamps a timer with the loop's clock, updated as it is read);
// when Node processes timers, every expired one runs in order of due time, then of creation. An
// immediate runs in the loop's check phase, after the timers that had expired when the current
// phase began and before any timer set since — so here it is due at the start of the guest turn
// that set it (one delivered completion with its microtasks); one set by an immediate's own
// callback waits for the next loop iteration, behind every timer expired by then, so it is due
// when it is set. The main body runs before Node's
// loop starts, and the loop starts with its timers phase: an immediate the main body sets is due
// 1 ms after it is set, behind the 0 and 1 ms timeouts set before it. The host's own
// timeouts fire in nearly that order, but not quite (a 0 ms and a 1 ms timeout share the host's
// 1 ms list; a completion can wait behind a guest turn while others expire). So the run loop asks,
// before delivering a timer whose host timeout fired, whether an earlier-due one is pending — it
// has expired too — and delivers that one first (RunLoop's drain).

/** One pending timer of the run. */
interface Timer {
  readonly due: number;
  readonly seq: number;
  /** Set by setImmediate (not a timeout). */
  readonly immediate: boolean;
  /** The async op id the run loop gave it (0 until bound). */
  id: number;
  live: boolean;
}

/** (due, creation) order. */
function before(a: Timer, b: Timer): boolean {
  return a.due < b.due || (a.due === b.due && a.seq < b.seq);
}

/** Below this size a heap of mostly cancelled timers is not worth compacting. */
const COMPACT_MIN = 64;

export class TimerQueue {
  #seq = 0;
  #live = 0;
  /** A binary min-heap in (due, seq) order; cancelled timers leave lazily (or by compaction). */
  #heap: Timer[] = [];
  /** Timers started by the op being started, until the run loop binds them to its op id. */
  readonly #unbound = new Map<AbortSignal, Timer>();
  readonly #byId = new Map<number, Timer>();

  #turnStart = 0;
  #inMain = false;
  /** Whether the last timer delivered (done) was an immediate. */
  #lastImmediate = false;
  /** Whether the current turn runs an immediate's callback (Node's check phase). */
  #inCheck = false;

  /** A guest turn starts now (the run loop calls this as it enters the guest): the main body's, or a completion's. */
  turn(now: number, main = false): void {
    this.#turnStart = now;
    this.#inMain = main;
    this.#inCheck = !main && this.#lastImmediate;
    this.#lastImmediate = false;
  }

  /** Settles `ms` from now; `signal` cancels. (`immediate`: it stands for an immediate set by the main body.) */
  sleep(ms: number, signal: AbortSignal, immediate = false): Promise<void> {
    const timer = this.#add(performance.now() + ms, signal, immediate);
    return new Promise((resolve) => {
      const t = setTimeout(resolve, ms);
      signal.addEventListener('abort', () => { clearTimeout(t); this.#drop(timer); }, { once: true });
    });
  }

  /** Settles as Node's setImmediate (see the top of this file); `signal` cancels. */
  immediate(signal: AbortSignal): Promise<void> {
    if (this.#inMain) return this.sleep(1, signal, true);
    // One set by an immediate's callback waits for Node's next loop iteration, whose timers phase
    // first runs every timer expired by then: it is due when it is set, not at the turn's start.
    const timer = this.#add(this.#inCheck ? performance.now() : this.#turnStart, signal, true);
    return new Promise((resolve) => {
      const t = setImmediate(resolve);
      signal.addEventListener('abort', () => { clearImmediate(t); this.#drop(timer); }, { once: true });
    });
  }

  #add(due: number, signal: AbortSignal, immediate: boolean): Timer {
    const timer: Timer = { due, seq: this.#seq++, immediate, id: 0, live: true };
    this.#push(timer);
    this.#unbound.set(signal, timer);
    return timer;
  }

  /** Timers in the heap, cancelled ones included: at most about twice the live ones (compaction). */
  get size(): number {
    return this.#heap.length;
  }

  /** Names the timer `signal`'s op started (if it started one) by the op's id. */
  bind(signal: AbortSignal, id: number): void {
    const timer = this.#unbound.get(signal);
    if (timer === undefined) return;
    this.#unbound.delete(signal);
    timer.id = id;
    if (timer.live) this.#byId.set(id, timer);
  }

  /**
   * The op id of the timer to deliver in place of timer op `id`, whose host timeout fired: the
   * earliest pending timer, which is due no later than `id` and so has expired too. Undefined when
   * `id` is not a timer or is itself the earliest.
   */
  earlierThan(id: number): number | undefined {
    const timer = this.#byId.get(id);
    if (timer === undefined) return undefined;
    const first = this.#first();
    return first === undefined || first === timer || !before(first, timer) ? undefined : first.id;
  }

  /** Whether op `id` is a pending timer or immediate. */
  has(id: number): boolean {
    return this.#byId.has(id);
  }

  /** Timer op `id` was delivered (or will never be): it leaves the queue. */
  done(id: number): void {
    const timer = this.#byId.get(id);
    this.#lastImmediate = timer?.immediate === true;
    if (timer !== undefined) this.#drop(timer);
  }

  #drop(timer: Timer): void {
    if (!timer.live) return;
    timer.live = false;
    this.#live--;
    this.#byId.delete(timer.id);
    // A script that sets and clears many long timers would otherwise grow the heap without bound.
    if (this.#heap.length >= COMPACT_MIN && this.#live * 2 < this.#heap.length) this.#compact();
  }

  /** The earliest live timer (cancelled ones at the top are discarded on the way). */
  #first(): Timer | undefined {
    while (this.#heap.length > 0 && !this.#heap[0]!.live) this.#pop();
    return this.#heap[0];
  }

  #compact(): void {
    const live = this.#heap.filter((t) => t.live);
    this.#heap = [];
    for (const t of live) this.#push(t, false);
  }

  #push(timer: Timer, counted = true): void {
    if (counted) this.#live++;
    const heap = this.#heap;
    let i = heap.length;
    heap.push(timer);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(timer, heap[parent]!)) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = timer;
  }

  #pop(): void {
    const heap = this.#heap;
    const last = heap.pop()!;
    if (heap.length === 0) return;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && before(heap[right]!, heap[left]!) ? right : left;
      if (!before(heap[child]!, last)) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = last;
  }
}
