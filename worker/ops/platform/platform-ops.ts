// platform.part: the source of a lazy guest-platform part (worker/guest/generated/parts/), read
// from disk once per worker (the factory's cache: a few fixed files, named by a pattern, so the
// guest cannot grow it). The guest evaluates it the first time a script needs it.
import { readFileSync } from 'node:fs';
import { OpError, type OpFactory } from '../op-types.ts';

const PART_NAME = /^[a-z][a-z0-9-]*$/;

/** The source of platform part `name`, or undefined when there is no such part. */
export function readPartSource(name: string): string | undefined {
  if (!PART_NAME.test(name)) return undefined;
  try {
    return readFileSync(new URL(`../../guest/generated/parts/${name}.js`, import.meta.url), 'utf8');
  } catch {
    return undefined;
  }
}

export const createPlatformOps: OpFactory = () => {
  const sources = new Map<string, string>();
  return {
    // Answered by engines that compile parts themselves (V8, worker/engines/v8/part-compiler.ts)
    // before it reaches here; elsewhere: undefined, and the guest evaluates the part's source.
    'platform.compile': { kind: 'sync', run: () => undefined },
    'platform.part': {
      kind: 'sync',
      run(args) {
        if (typeof args !== 'string' || !PART_NAME.test(args)) throw new OpError('platform.part expects a part name', 'TypeError');
        let src = sources.get(args);
        if (src === undefined) {
          src = readPartSource(args);
          if (src === undefined) throw new OpError(`runjs: unknown platform part '${args}'`);
          sources.set(args, src);
        }
        return src;
      },
    },
  };
};
