// process.nextTick's queue, run as Node runs it: after the current callback (the main body's
// synchronous part, a timer, an immediate, an op's completion) and before the promise jobs it
// queued; ticks queued from promise jobs run once the jobs queued before them have run.
import { setAfterTask, watchDropped, failRun, currentFrame, runInFrame } from './host.js';

const ticks = []; // callback, args, async context, callback, args, async context, ...
let head = 0;
let scheduled = false;
const resolved = Promise.resolve();

function drainTicks() {
  while (head < ticks.length) {
    const callback = ticks[head];
    const args = ticks[head + 1];
    const frame = ticks[head + 2];
    ticks[head] = ticks[head + 1] = ticks[head + 2] = undefined;
    head += 3;
    try {
      watchDropped(runInFrame(frame, callback, undefined, args));
    } catch (e) {
      try { failRun(e); } catch { /* the run has ended */ }
    }
  }
  ticks.length = 0;
  head = 0;
}

function drainFromJob() {
  scheduled = false;
  drainTicks();
}

export function queueTick(callback, args) {
  ticks.push(callback, args, currentFrame());
  if (!scheduled) {
    scheduled = true;
    resolved.then(drainFromJob);
  }
}

setAfterTask(drainTicks);
