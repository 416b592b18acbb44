// The run's clock, kept by core (it resets at every run start).
import core from 'runjs:part/core';

export const { now, timeOrigin } = core.host;
