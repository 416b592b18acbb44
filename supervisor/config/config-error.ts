/**
 * The one error type for startup configuration problems. The process entry
 * prints `message` and exits non-zero; messages always name the culprit
 * (flag, environment variable or config-file key) so the user can fix it
 * without reading code.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}
