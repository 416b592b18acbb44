// Server resources: capabilities, version, the CLI index, and the generic error body.
import { ref, type JsonSchema } from './json-schema.ts';

export const CLI_PLATFORMS = ['linux-x86_64', 'linux-aarch64', 'macos-aarch64'] as const;
export type CliPlatform = (typeof CLI_PLATFORMS)[number];

export const Capabilities: JsonSchema = {
  type: 'object',
  required: ['filesystem', 'heap', 'sessions'],
  properties: {
    filesystem: { type: 'boolean', description: 'Filesystem snapshots are configured (`--fs-store`).' },
    heap: { type: 'boolean', description: 'Heap persistence is configured (`--heap-store`).' },
    sessions: { type: 'boolean', description: 'Per-session state (heap and/or filesystem) is available.' },
  },
};

export const Version: JsonSchema = {
  type: 'object',
  required: ['version'],
  properties: { version: { type: 'string', description: 'The running server version (package.json `version`).' } },
};

export const CliPlatformName: JsonSchema = { type: 'string', enum: [...CLI_PLATFORMS] };

export const CliAsset: JsonSchema = {
  type: 'object',
  required: ['platform', 'url', 'available'],
  properties: {
    platform: ref('CliPlatformName'),
    url: { type: 'string', format: 'uri', description: 'Absolute download URL on this server.' },
    available: { type: 'boolean', description: 'false when the binary was not embedded in this build (the download is then 404).' },
  },
};

export const CliIndex: JsonSchema = {
  type: 'object',
  required: ['version', 'assets'],
  properties: {
    version: { type: 'string', description: 'Same as `GET /api/version`.' },
    assets: { type: 'array', items: ref('CliAsset') },
  },
};

export const ApiError: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: { error: { type: 'string', description: 'What went wrong, and where it helps, what to do instead.' } },
};
