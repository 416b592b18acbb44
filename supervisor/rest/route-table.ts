// Every /api route, in documentation order. A new resource adds its RouteSpec list here (and its
// schemas to shared/schemas/index.ts); the router and the OpenAPI document follow.
import { EXECUTION_ROUTES } from './execution-routes.ts';
import { SERVER_ROUTES } from './server-routes.ts';
import { HEAP_ROUTES } from './heap-routes.ts';
import { ARTIFACT_ROUTES } from './artifact-routes.ts';
import { FS_ROUTES } from './fs-routes.ts';
import { SESSION_FILE_ROUTES } from './session-file-routes.ts';
import type { RouteSpec } from './route-types.ts';

export const API_PREFIX = '/api';

export const API_ROUTES: readonly RouteSpec[] = [...EXECUTION_ROUTES, ...ARTIFACT_ROUTES, ...HEAP_ROUTES, ...SESSION_FILE_ROUTES, ...FS_ROUTES, ...SERVER_ROUTES];

/** OpenAPI tags, in order, with their descriptions. */
export const API_TAGS: readonly { readonly name: string; readonly description: string }[] = [
  { name: 'executions', description: 'Submit code, follow its status, read its output, cancel it.' },
  { name: 'artifacts', description: 'Files and images scripts emit with artifact(), downloads, uploads, one-time upload URLs.' },
  { name: 'heaps', description: 'Tags on heap snapshots, and finding heaps by tags.' },
  { name: 'sessions', description: 'The session log: every completed run of a session and the heaps it started from and produced.' },
  { name: 'fs', description: 'Filesystem snapshot labels: list, resolve, reflog, push (compare-and-set), reset, and merge.' },
  { name: 'server', description: 'Server capabilities, version and CLI downloads.' },
  { name: 'meta', description: 'This document.' },
];
