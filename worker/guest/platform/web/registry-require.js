// The global `require()`, from core's registry.
import core from 'runjs:part/core';

export const require = core.host.require;
