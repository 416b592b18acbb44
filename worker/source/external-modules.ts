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

/** Loads the external modules among `specifiers` (others are left to resolveImport): specifier → source. */
export async function loadExternalModules(specifiers: readonly string[], supervisor: RunSupervisor, policy: RunPolicy, signal: AbortSignal): Promise<Map<string, string>> {
  const wanted = [...new Set(specifiers.filter((s) => externalKind(s) !== undefined))];
  // Resolved and decided together; loaded one at a time (each answer may be a large bundle, and a
  // run's answers in flight share one budget).
  await Promise.all(wanted.map(async (specifier) => {
    const resolved = await supervisor.request('modules.resolve', { specifier }, signal) as Resolved;
    const input: ModuleDecisionInput = {
      specifier, specifier_type: resolved.type, resolved_url: resolved.resolvedUrl, url_parsed: urlParsed(new URL(resolved.resolvedUrl)),
    };
    await policy.enforce('modules', input, { defaultReason: `import of '${specifier}' is not allowed`, signal });
  }));
  const sources = new Map<string, string>();
  for (const specifier of wanted) sources.set(specifier, await supervisor.request('modules.load', { specifier }, signal) as string);
  return sources;
}
