// Differential guest tests: run a script that prints one JSON document, and parse it. The same
// computation runs on the host with Node's implementation, and the two must match.
import type { GuestContext } from './both-engines.ts';

/** Runs `body` (which must `return` a JSON-serializable value from an async function) and parses its result. */
export async function guestJson<T = unknown>(ctx: GuestContext, body: string, timeoutMs = 30_000): Promise<T> {
  const out = await ctx.output(`const __result = await (async () => {\n${body}\n})();\nconsole.log(JSON.stringify(__result));`, { timeoutMs, maxOutputBytes: 16 << 20 });
  return JSON.parse(out) as T;
}
