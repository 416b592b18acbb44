// The run's timer queue: which timer the run loop delivers in place of one whose host timeout
// fired (the earliest pending one, by due time then creation), immediates ordered at their turn's
// start (or, set by an immediate, when set), cancellation, and the bound on cancelled timers it keeps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TimerQueue } from '../../../worker/runtime/timer-queue.ts';

/** Starts a sleep (or an immediate) bound to op `id`, as the run loop's hostCall does. */
function start(q: TimerQueue, id: number, ms: number | 'immediate'): AbortController {
  const c = new AbortController();
  if (ms === 'immediate') void q.immediate(c.signal);
  else void q.sleep(ms, c.signal);
  q.bind(c.signal, id);
  return c;
}

test('a timer gives way to an earlier-due pending one; equal dues go in creation order; immediates are due at their turn start', () => {
  const q = new TimerQueue();
  q.turn(performance.now());
  const all = [start(q, 1, 50), start(q, 2, 10), start(q, 3, 10), start(q, 4, 'immediate')];
  assert.equal(q.earlierThan(1), 4, 'the immediate comes first');
  assert.equal(q.earlierThan(4), undefined, 'the immediate is itself the earliest');
  q.done(4);
  assert.equal(q.earlierThan(1), 2);
  assert.equal(q.earlierThan(3), 2, 'the 10 ms timer set first goes first');
  q.done(2);
  assert.equal(q.earlierThan(3), undefined);
  assert.equal(q.earlierThan(1), 3);
  all[2]!.abort(); // timer 3 cleared
  assert.equal(q.earlierThan(1), undefined);
  assert.equal(q.earlierThan(99), undefined, 'not a timer');
  for (const c of all) c.abort();
});

test('in the main body, an immediate comes after the 1 ms timeouts set before it', () => {
  const q = new TimerQueue();
  q.turn(performance.now(), true);
  const all = [start(q, 1, 1), start(q, 2, 'immediate')];
  assert.equal(q.earlierThan(2), 1);
  assert.equal(q.earlierThan(1), undefined);
  for (const c of all) c.abort();
});

test("an immediate set by an immediate's callback is due when it is set: a timer set (or expired) before it goes first", () => {
  const q = new TimerQueue();
  q.turn(performance.now());
  const first = start(q, 1, 'immediate');
  q.done(1); // the run loop delivers the immediate in a turn of its own (Node's check phase)
  q.turn(performance.now());
  const timer = start(q, 2, 0);
  const next = start(q, 3, 'immediate');
  assert.equal(q.earlierThan(3), 2, 'Node runs the next loop turn\'s timers before its immediates');
  for (const c of [first, timer, next]) c.abort();
  // In a timer's turn an immediate is still due at the turn's start: before a timeout set beside it.
  start(q, 4, 1);
  q.done(4);
  q.turn(performance.now());
  const later = [start(q, 5, 1), start(q, 6, 'immediate')];
  assert.equal(q.earlierThan(5), 6);
  for (const c of later) c.abort();
});

test('an op that started no timer binds nothing; a cleared timer leaves the queue', () => {
  const q = new TimerQueue();
  q.bind(new AbortController().signal, 7);
  assert.equal(q.earlierThan(7), undefined);
  const a = start(q, 1, 100);
  const b = start(q, 2, 5);
  b.abort();
  assert.equal(q.earlierThan(1), undefined);
  a.abort();
});

test('cancelled timers are compacted away: the queue stays within twice its live timers', () => {
  const q = new TimerQueue();
  const keep = start(q, 1, 1_000);
  for (let i = 0; i < 10_000; i++) start(q, i + 2, 60_000 + i).abort();
  assert.ok(q.size <= 64, `size ${q.size}`);
  assert.equal(q.earlierThan(1), undefined);
  keep.abort();
});
