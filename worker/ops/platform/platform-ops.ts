// platform.part: the source of a lazy guest-platform part (worker/guest/generated/parts/), read
// from disk once per worker process. The guest evaluates it the first time a script needs it.
import { readFileSync } from 'node:fs';
import { OpError, type OpTable } from '../op-types.ts';

const PART_NAME = /^[a-z][a-z-]*$/;
const sources = new Map<string, string>();

export function partSource(name: string): string | undefined {
  let src = sources.get(name);
  if (src === undefined) {
    try {
      src = readFileSync(new URL(`../../guest/generated/parts/${name}.js`, import.meta.url), 'utf8');
    } catch {
      return undefined;
    }
    sources.set(name, src);
  }
  return src;
}

export const platformOps: OpTable = {
  'platform.part': {
    kind: 'sync',
    run(args) {
      if (typeof args !== 'string' || !PART_NAME.test(args)) throw new OpError('platform.part expects a part name', 'TypeError');
      const src = partSource(args);
      if (src === undefined) throw new OpError(`runjs: unknown platform part '${args}'`);
      return src;
    },
  },
};
