// Small pieces shared by the HTTP listeners.
// (Error responses: supervisor/rest/api-error.ts, from the registry in shared/errors.ts.)

/** Keep-alive comment interval on every event stream (spec: 15 s). */
export const KEEP_ALIVE_MS = 15_000;
