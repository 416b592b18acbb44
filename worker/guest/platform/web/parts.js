// Other lazy parts, loaded through core.
import core from 'runjs:part/core';

export const { requirePart } = core.host;
