// The op table of a worker: every capability's ops, merged once.
import type { OpTable } from './op-types.ts';
import { consoleOps } from './console/console-ops.ts';
import { timerOps } from './timers/timer-ops.ts';
import { runOps } from './run/run-ops.ts';
import { platformOps } from './platform/platform-ops.ts';
import { clockOps } from './clock/clock-ops.ts';
import { urlOps } from './url/url-ops.ts';
import { encodingOps } from './encoding/encoding-ops.ts';
import { cryptoOps } from './crypto/crypto-ops.ts';
import { hashOps } from './crypto/hash-handles.ts';
import { zlibOps } from './zlib/zlib-ops.ts';
import { intlOps } from './intl/intl-ops.ts';
import { artifactOps } from './artifacts/artifact-ops.ts';
import { pathOps } from './path/path-ops.ts';
import { utilOps } from './util/util-ops.ts';

export const ALL_OPS: OpTable = Object.freeze({ ...consoleOps, ...timerOps, ...runOps,
  ...platformOps, ...clockOps, ...urlOps, ...encodingOps, ...cryptoOps, ...hashOps, ...zlibOps, ...intlOps, ...artifactOps, ...pathOps, ...utilOps });
