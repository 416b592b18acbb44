// A run's external imports (`npm:`, `jsr:`, http(s) URLs; --allow-external-modules): for each, the
// supervisor resolves it (`modules.resolve`), the `modules` policy decides on what it resolved to,
// and the supervisor hands back the bundled module (`modules.load`; supervisor/modules/). The
// worker stays offline: it fetches nothing itself.
import type { RunSupervisor } from '../ops/op-types.ts';
import type { RunPolicy } from '../policy/policy-engine.ts';
import { urlParsed } from '../network/url-parsed.ts';
import { externalKind } from './resolve-import.ts';

export interface ModuleDecisionInput {
  readonly specifier: string;
  readonly specifier_type: 'npm' | 'jsr' | 'url';
  readonly resolved_url: string;
  readonly url_parsed: ReturnType<typeof urlParsed>;
}

interface Resolved {
  readonly type: 'npm' | 'jsr' | 'url';
  readonly resolvedUrl: string;
}

interface Loaded {
  readonly source: string;
  readonly commonjs: boolean;
  /** A CommonJS entry's export names, as the supervisor read them from it. */
  readonly names?: readonly string[];
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
/** Where a CommonJS bundle is linked from its facade (a name no script import can reach: resolveImport refuses it). */
const COMMONJS_PREFIX = 'runjs-commonjs:';

/**
 * The module a script links for a CommonJS package: its default is `module.exports`, and each name
 * the script imports is that property (read once, at link time, as Node's CommonJS interop does).
 */
function commonjsFacade(specifier: string, names: readonly string[]): string {
  const lines = [`import m from ${JSON.stringify(COMMONJS_PREFIX + specifier)};`, 'export default m;'];
  names.filter((n) => n !== 'default').forEach((n, i) => {
    lines.push(`const __n${i} = m == null ? undefined : m[${JSON.stringify(n)}];`, `export { __n${i} as ${IDENTIFIER.test(n) ? n : JSON.stringify(n)} };`);
  });
  return `${lines.join('\n')}\n`;
}

/**
 * Loads the external modules among `specifiers` (others are left to resolveImport): specifier →
 * source. `importNames` (WrappedMain.importNames) names what a CommonJS package's facade exports.
 */
export async function loadExternalModules(specifiers: readonly string[], importNames: ReadonlyMap<string, readonly string[]>, supervisor: RunSupervisor, policy: RunPolicy, signal: AbortSignal): Promise<Map<string, string>> {
  const wanted = [...new Set(specifiers.filter((s) => externalKind(s) !== undefined))];
  // Resolved and decided together; loaded one at a time (each answer may be a large bundle, and a
  // run's answers in flight share one budget).
  // With no `modules` policy there is nothing to decide: no need to ask what each one resolves to.
  if (policy.configured('modules')) await Promise.all(wanted.map(async (specifier) => {
    const resolved = await supervisor.request('modules.resolve', { specifier }, signal) as Resolved;
    const input: ModuleDecisionInput = {
      specifier, specifier_type: resolved.type, resolved_url: resolved.resolvedUrl, url_parsed: urlParsed(new URL(resolved.resolvedUrl)),
    };
    await policy.enforce('modules', input, { defaultReason: `import of '${specifier}' is not allowed`, signal });
  }));
  const sources = new Map<string, string>();
  for (const specifier of wanted) {
    const m = await supervisor.request('modules.load', { specifier }, signal) as Loaded;
    if (m.commonjs) {
      sources.set(COMMONJS_PREFIX + specifier, m.source);
      sources.set(specifier, commonjsFacade(specifier, [...new Set([...(m.names ?? []), ...(importNames.get(specifier) ?? [])])]));
    } else {
      sources.set(specifier, m.source);
    }
  }
  return sources;
}
