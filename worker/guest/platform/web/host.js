// The prelude's bridge, as core hands it to this part (core alone may touch `internal`).
import core from 'runjs:part/core';

export const { op, opAsync, formatError, formatArg, onRunStart, failRun, failRunNow, setUncaughtHandler, watchDropped, setAfterTask, requirePart, currentFrame, runInFrame } = core.host;
