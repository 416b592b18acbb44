// The repository root, for the guest-bundle scripts.
import { fileURLToPath } from 'node:url';

export const ROOT_FOR_EXPORTS = fileURLToPath(new URL('../../', import.meta.url));
