// Worker settings for tests that build op tables or hosts without a pool (the pool makes its own).
import { DEFAULT_HOST_OP_LIMITS, DEFAULT_NETWORK_SETTINGS, type WorkerSettings } from '../../shared/worker-settings.ts';
import { QUICKJS_CACHE_DIR } from '../../supervisor/pool/worker-process.ts';

export const TEST_WORKER_SETTINGS: WorkerSettings = Object.freeze({
  warmEngines: ['v8', 'quickjs'] as const,
  quickjsCacheDir: QUICKJS_CACHE_DIR,
  limits: DEFAULT_HOST_OP_LIMITS,
  policies: {},
  network: DEFAULT_NETWORK_SETTINGS,
  headerRules: [],
});
