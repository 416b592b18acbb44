// `node scripts/guest-bundle/measure-boot.ts`: what the guest platform adds to booting a V8
// realm (isolate + context + prelude from V8's code cache), as process CPU time per realm,
// for prelude.js alone, plus the captured primordials, and the whole prelude. Use it with
// `npm run bench -- --only engine.trivial_run_ms --only quickjs.` for the end-to-end figures.
import ivm from 'isolated-vm';
import { readFileSync } from 'node:fs';
import { PRELUDE_SOURCE } from '../../worker/guest/prelude-source.ts';

const dir = new URL('../../worker/guest/', import.meta.url);
const prelude = readFileSync(new URL('prelude.js', dir), 'utf8');
const end = readFileSync(new URL('prelude-end.js', dir), 'utf8');
const platform = readFileSync(new URL('generated/platform.js', dir), 'utf8');
const primordialsOnly = `${platform.slice(0, platform.indexOf('(function (__runjs_P, __runjs_require) {'))}})();\n`;

async function measure(name: string, source: string, iterations = 80): Promise<void> {
  let cached: ivm.ExternalCopy<ArrayBuffer> | undefined;
  const cpu: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const before = process.cpuUsage();
    const isolate = new ivm.Isolate({ memoryLimit: 8 });
    const context = await isolate.createContext();
    await context.global.set('__runjs_host', new ivm.Callback(() => 'v'));
    const script = await isolate.compileScript(source, { filename: 'runjs:prelude', ...(cached ? { cachedData: cached } : { produceCachedData: true }) });
    cached ??= (script as ivm.Script & ivm.CachedDataResult).cachedData;
    await script.run(context, { reference: true });
    const used = process.cpuUsage(before);
    if (i > 0) cpu.push((used.user + used.system) / 1000);
    isolate.dispose();
  }
  cpu.sort((a, b) => a - b);
  console.log(`${name.padEnd(34)} ${String(source.length).padStart(7)} bytes   realm boot CPU median ${cpu[cpu.length >> 1]!.toFixed(2)} ms`);
}

await measure('prelude.js only', `${prelude}\n${end}`);
await measure('prelude.js + primordials', `${prelude}\n${primordialsOnly}\n${end}`);
await measure('full prelude (PRELUDE_SOURCE)', PRELUDE_SOURCE);
