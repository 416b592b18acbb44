// Wire shapes of the server resources (their schemas: shared/schemas/server-schemas.ts).
import type { CliPlatform } from '../../shared/schemas/index.ts';

export interface Capabilities {
  readonly filesystem: boolean;
  readonly heap: boolean;
  readonly sessions: boolean;
}

export interface CliAsset {
  readonly platform: CliPlatform;
  readonly url: string;
  readonly available: boolean;
}

export interface CliIndex {
  readonly version: string;
  readonly assets: readonly CliAsset[];
}
