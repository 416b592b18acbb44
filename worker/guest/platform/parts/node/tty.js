// node:tty. A run's output is never a terminal (stdout/stderr are captured, stdin is empty), so
// every descriptor answers isatty() false and a TTY stream cannot be opened, as in Node on a
// descriptor libuv cannot open as a TTY. It exists so that code (and Node's own test files) that
// requires it up front, to ask `isatty` before colouring, loads.
import core from 'runjs:part/core';

const { nodeError } = core.shared;

/** Node answers false for anything that is not a TTY descriptor; in runjs none is. */
function isatty(_fd) {
  return false;
}

function ttyInitFailed(fd) {
  if (!Number.isInteger(fd) || fd < 0 || fd > 2147483647) {
    throw nodeError(RangeError, 'ERR_INVALID_FD', `"fd" must be a positive integer: ${fd}`);
  }
  // Node's SystemError for uv_tty_init's EINVAL, with its `info` fields.
  const err = nodeError(Error, 'ERR_TTY_INIT_FAILED', 'TTY initialization failed: uv_tty_init returned EINVAL (invalid argument)');
  Object.defineProperty(err, 'name', { value: 'SystemError', writable: true, enumerable: false, configurable: true });
  Object.assign(err, { info: { errno: -22, code: 'EINVAL', message: 'invalid argument', syscall: 'uv_tty_init' }, errno: -22, syscall: 'uv_tty_init' });
  return err;
}

class ReadStream {
  constructor(fd) {
    throw ttyInitFailed(fd);
  }
}
class WriteStream {
  constructor(fd) {
    throw ttyInitFailed(fd);
  }
}

export const tty = { isatty, ReadStream, WriteStream };
