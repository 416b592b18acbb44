// node:stream, node:stream/promises and node:stream/consumers: readable-stream, the userland copy
// of Node's streams, plus the web-stream adapters and stdio Writables it leaves to Node's internals.
import Stream from 'readable-stream/lib/stream.js';
import promises from 'readable-stream/lib/stream/promises.js';
import core from 'runjs:part/core';
import { installWebAdapters } from './stream/web-adapters.js';
import { installStdio } from './stream/stdio.js';
import { consumers } from './stream/consumers.js';

installWebAdapters(Stream);
installStdio(Stream, core.process);

export const modules = { stream: Stream, 'stream/promises': promises, 'stream/consumers': consumers };
export const globals = {};
