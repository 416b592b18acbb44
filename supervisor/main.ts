// The process entry (`npm start`, `npx runjs-mcp`): configuration, the one-shot flags, then the
// server until SIGINT/SIGTERM (or, on stdio, until the client closes stdin).
// stdout belongs to the stdio transport: only --help, --version and --print-openapi print there,
// and they exit before anything starts. Everything else goes to stderr.
import { enableCompileCache, persistCompileCache } from './compile-cache.ts';
import { ConfigError } from './config/config-error.ts';
import { helpText } from './config/help-text.ts';
import { loadProcessConfig, type Config } from './config/load-config.ts';
import { assertImplemented } from './config/unsupported.ts';
import { packageVersion } from './rest/package-version.ts';
import type { RunningApp } from './app.ts';

/** Exit codes: 2 for configuration errors (the user must change the command), 1 for other startup failures. */
const EXIT_CONFIG = 2;
const EXIT_STARTUP = 1;
/** A shutdown that hangs (a stuck worker, a client that never lets go) must still end the process. */
const SHUTDOWN_GRACE_MS = 10_000;

function fail(message: string, code: number): never {
  process.stderr.write(`runjs: ${message}\n`);
  process.exit(code);
}

function configure(): Config {
  try {
    const config = loadProcessConfig();
    if (!config.help && !config.version && !config.printOpenapi) assertImplemented(config);
    return config;
  } catch (e) {
    if (e instanceof ConfigError) fail(e.message, EXIT_CONFIG);
    throw e;
  }
}

// Before the server's modules load (app.ts below): later starts skip their type-stripping and compilation.
enableCompileCache();
const config = configure();
if (config.help) {
  process.stdout.write(helpText());
  process.exit(0);
}
if (config.version) {
  process.stdout.write(`${packageVersion()}\n`);
  process.exit(0);
}
if (config.printOpenapi) {
  const { openApiJson } = await import('./rest/openapi.ts');
  process.stdout.write(openApiJson(packageVersion()));
  process.exit(0);
}

// Loaded only now: the one-shot flags above answer without loading the server (express, the SDK, ...).
const { createLogger, startApp, StartupError } = await import('./app.ts');
const log = createLogger(config.logLevel);
let app: RunningApp | undefined;
let stopping = false;

async function shutdown(reason: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info(`shutting down (${reason})`);
  setTimeout(() => {
    log.error(`shutdown did not finish within ${SHUTDOWN_GRACE_MS / 1000} s; exiting`);
    process.exit(EXIT_STARTUP);
  }, SHUTDOWN_GRACE_MS).unref();
  await app?.close();
  process.exit(0);
}

process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));

try {
  app = await startApp(config, log, { onStdioEnd: () => void shutdown('stdin closed') });
  persistCompileCache();
} catch (e) {
  if (e instanceof ConfigError) fail(e.message, EXIT_CONFIG);
  if (e instanceof StartupError) fail(e.message, EXIT_STARTUP);
  fail(`startup failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`, EXIT_STARTUP);
}
