// The hostile catalogue (catalogue.ts) on both engines at once: a V8 server (no heap store) and a
// QuickJS server (--heap-store dir) side by side, each taking the entries one at a time.
// RUNJS_HOSTILE_ENGINE=v8|quickjs runs one engine only. See run-catalogue.ts for the checks.
import { describe } from 'node:test';
import type { EngineName } from '../../shared/protocol.ts';
import { runCatalogue } from './run-catalogue.ts';

const ENGINES: readonly EngineName[] = ['v8', 'quickjs'];
const only = process.env['RUNJS_HOSTILE_ENGINE'];

describe('hostile catalogue', { concurrency: 2 }, () => {
  for (const engine of ENGINES) {
    if (only !== undefined && only !== '' && only !== engine) continue;
    describe(engine, { concurrency: 1 }, () => runCatalogue(engine));
  }
});
