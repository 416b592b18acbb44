/**
 * Rules that relate two or more flags. Each rule returns its fixed message
 * when violated; the first violated rule (in this order) aborts startup.
 * Rules see final values, so a flag counts as "given" whichever source set
 * it (flag, env, file, or PORT for --http-port). Each rule also carries the
 * sentence docs/configuration.md shows for it.
 */
import { SPECS } from './describe-flag.ts';
import type { FlagGroup } from './flag-spec.ts';

export interface ConflictView {
  /** Final value of a flag (after defaults). */
  readonly get: (flag: string) => unknown;
  /** Whether the user set the flag (flag, env, file or PORT), as opposed to a default. */
  readonly isSet: (flag: string) => boolean;
}

export interface ConflictRule {
  readonly doc: string;
  readonly check: (view: ConflictView) => string | undefined;
}

/** Settings that only make sense on a node that runs JavaScript. */
const JS_EXECUTION_GROUPS: ReadonlySet<FlagGroup> = new Set([
  'execution', 'mcp-surface', 'storage', 'policy', 'upstream-mcp', 'wasm',
]);
export const JS_EXECUTION_FLAGS: readonly string[] = SPECS.filter(
  (s) => JS_EXECUTION_GROUPS.has(s.group) || s.name.startsWith('harden-') ||
    ['stateless', 'session-id', 'session-fork-from'].includes(s.name),
).map((s) => s.name);

const hasTransport = (v: ConflictView): boolean => v.get('http-port') !== undefined || v.get('sse-port') !== undefined;
const when = (condition: boolean, message: string): string | undefined => (condition ? message : undefined);

export const CONFLICT_RULES: readonly ConflictRule[] = [
  {
    // An empty allowlist would start fine and then answer every HTTP request with 403.
    doc: '`--allowed-hosts` empty (`--allowed-hosts=`, `RUNJS_ALLOWED_HOSTS=,`, `allowed_hosts = []`): ' +
      '`--allowed-hosts needs at least one host (use * for any)`.',
    check: (v) => when((v.get('allowed-hosts') as readonly string[]).length === 0,
      '--allowed-hosts needs at least one host (use * for any)'),
  },
  {
    doc: '`--http-port` and `--sse-port` both set: `--http-port and --sse-port cannot be used together`.',
    check: (v) => when(v.get('http-port') !== undefined && v.get('sse-port') !== undefined,
      '--http-port and --sse-port cannot be used together'),
  },
  {
    doc: '`--metadata-only` without `--cluster-port`: `--metadata-only requires --cluster-port`.',
    check: (v) => when(v.get('metadata-only') === true && v.get('cluster-port') === undefined,
      '--metadata-only requires --cluster-port'),
  },
  {
    doc: '`--metadata-only` with a transport port or any JS-execution setting (execution limits, MCP surface, ' +
      'persistence, policies, external MCP, WASM, `--harden-*`, `--stateless`, `--session-id`, ' +
      '`--session-fork-from`): `--metadata-only cannot be used with --<flag>` / ' +
      '`--metadata-only cannot be used with JS-execution setting --<flag>`.',
    check: (v) => {
      if (v.get('metadata-only') !== true) return undefined;
      const transport = ['http-port', 'sse-port'].find((f) => v.get(f) !== undefined);
      if (transport !== undefined) return `--metadata-only cannot be used with --${transport}`;
      const setting = JS_EXECUTION_FLAGS.find((f) => v.isSet(f));
      return setting && `--metadata-only cannot be used with JS-execution setting --${setting}`;
    },
  },
  {
    doc: '`--stateless-artifact-tools` without `--stateless`: `--stateless-artifact-tools requires --stateless`.',
    check: (v) => when(v.get('stateless-artifact-tools') === true && v.get('stateless') !== true,
      '--stateless-artifact-tools requires --stateless'),
  },
  {
    doc: '`--cluster-port` without `--http-port` or `--sse-port` (unless `--metadata-only`): ' +
      '`Cluster mode requires --http-port or --sse-port (stdio transport is not supported in cluster mode)`.',
    check: (v) => when(v.get('cluster-port') !== undefined && v.get('metadata-only') !== true && !hasTransport(v),
      'Cluster mode requires --http-port or --sse-port (stdio transport is not supported in cluster mode)'),
  },
  {
    doc: '`--session-fork-from` without `--session-id`: ' +
      '`--session-fork-from requires --session-id (the new session to create)`.',
    check: (v) => when(v.isSet('session-fork-from') && !v.isSet('session-id'),
      '--session-fork-from requires --session-id (the new session to create)'),
  },
  {
    doc: '`--session-fork-from` equal to `--session-id`: ' +
      '`--session-fork-from \'<X>\' must differ from --session-id \'<X>\'`.',
    check: (v) => {
      const [from, id] = [String(v.get('session-fork-from')), String(v.get('session-id'))];
      return when(v.isSet('session-fork-from') && from === id,
        `--session-fork-from '${from}' must differ from --session-id '${id}'`);
    },
  },
  {
    doc: '`--session-fork-from` with neither store enabled: ' +
      '`--session-fork-from requires heap and/or fs persistence (set --heap-store and/or --fs-store)`.',
    check: (v) => when(v.isSet('session-fork-from') && v.get('heap-store') === 'none' && v.get('fs-store') === 'none',
      '--session-fork-from requires heap and/or fs persistence (set --heap-store and/or --fs-store)'),
  },
  {
    doc: '`--heap-store` other than `none` with WASM modules: `--wasm-module/--wasm-config is incompatible with heap ' +
      'persistence (--heap-store other than \'none\'): heap snapshots disable WebAssembly`.',
    check: (v) => {
      const wasm = v.get('wasm-config') !== undefined || (v.get('wasm-module') as readonly string[]).length > 0;
      return when(v.get('heap-store') !== 'none' && wasm,
        "--wasm-module/--wasm-config is incompatible with heap persistence (--heap-store other than 'none'): " +
        'heap snapshots disable WebAssembly');
    },
  },
  {
    doc: 'A store set to `s3` without `--s3-bucket`: `--s3-bucket is required when --heap-store or --fs-store is s3`.',
    check: (v) => {
      const s3 = v.get('heap-store') === 's3' || v.get('fs-store') === 's3';
      const message = '--s3-bucket is required when --heap-store or --fs-store is s3';
      return when(s3 && v.get('s3-bucket') === undefined, message);
    },
  },
  {
    doc: '`--heap-memory-max` above `--heap-memory-ceiling`: ' +
      '`--heap-memory-max (<max>) must not be greater than --heap-memory-ceiling (<ceiling>)`.',
    check: (v) => {
      const [max, ceiling] = [v.get('heap-memory-max') as number, v.get('heap-memory-ceiling') as number];
      return when(max > ceiling, `--heap-memory-max (${max}) must not be greater than --heap-memory-ceiling (${ceiling})`);
    },
  },
  {
    doc: '`--election-timeout-min` above `--election-timeout-max`: ' +
      '`--election-timeout-min (<min>) must not be greater than --election-timeout-max (<max>)`.',
    check: (v) => {
      const [min, max] = [v.get('election-timeout-min') as number, v.get('election-timeout-max') as number];
      const message = `--election-timeout-min (${min}) must not be greater than --election-timeout-max (${max})`;
      return when(min > max, message);
    },
  },
];

/** The message of the first violated rule, or undefined when the settings are consistent. */
export function findConflict(view: ConflictView): string | undefined {
  for (const rule of CONFLICT_RULES) {
    const message = rule.check(view);
    if (message !== undefined) return message;
  }
  return undefined;
}
