// node:readline and node:readline/promises for streams: an Interface reads its `input` stream
// (any Node Readable or EventEmitter of 'data'/'end'), decodes it as UTF-8 and emits each line
// ('line', `for await (const line of rl)`, question()), as Node's does when `terminal` is false —
// runjs has no TTY, so there is no line editing, history or completion. Made on first require.
import core from 'runjs:part/core';

const kCustomPromisify = Symbol.for('nodejs.util.promisify.custom');
const { invalidArgType } = core.shared;

/** Node's cursor helpers write ANSI escapes to a stream and return its write()'s answer. */
const CSI = '\x1b[';
function writeTo(stream, text, callback) {
  if (stream === null || stream === undefined) {
    if (typeof callback === 'function') queueMicrotask(() => callback(null));
    return true;
  }
  return stream.write(text, callback);
}

export function makeReadline() {
  const EventEmitter = core.host.requirePart('events').modules.events;
  const { StringDecoder } = core.host.requirePart('buffer').modules.string_decoder;

  class Interface extends EventEmitter {
    #decoder = new StringDecoder('utf8');
    #pending = '';
    #questions = [];
    #sawReturn = false;
    #onData;
    #onEnd;
    constructor(input, output = undefined, completer = undefined, terminal = undefined) {
      super();
      let options = input;
      if (!(input !== null && typeof input === 'object' && 'input' in input)) options = { input, output, completer, terminal };
      if (options.input === null || typeof options.input !== 'object' || typeof options.input.on !== 'function') {
        throw invalidArgType('input', 'an instance of Stream', options.input);
      }
      this.input = options.input;
      this.output = options.output;
      this.terminal = false;
      this.line = '';
      this.closed = false;
      this.crlfDelay = Math.max(100, Number(options.crlfDelay) || 100);
      this._prompt = options.prompt === undefined ? '> ' : String(options.prompt);
      this.#onData = (chunk) => this.#feed(typeof chunk === 'string' ? chunk : this.#decoder.write(chunk));
      this.#onEnd = () => {
        const rest = this.#pending + this.#decoder.end();
        this.#pending = '';
        if (rest.length > 0) this.#emitLine(rest);
        this.close();
      };
      this.input.on('data', this.#onData);
      this.input.on('end', this.#onEnd);
      if (options.signal !== undefined) {
        if (options.signal.aborted) queueMicrotask(() => this.close());
        else options.signal.addEventListener('abort', () => this.close(), { once: true });
      }
      if (typeof this.input.resume === 'function') this.input.resume();
    }
    /** Splits on \n, \r\n and a lone \r, as Node's non-terminal Interface does. */
    #feed(text) {
      let s = this.#pending + text;
      if (this.#sawReturn && s.startsWith('\n')) s = s.slice(1);
      this.#sawReturn = false;
      const parts = s.split(/\r\n|\n|\r/);
      this.#pending = parts.pop();
      if (s.endsWith('\r')) this.#sawReturn = true;
      for (const line of parts) {
        if (this.closed) return;
        this.#emitLine(line);
      }
    }
    #emitLine(line) {
      const answer = this.#questions.shift();
      if (answer !== undefined) answer(line);
      else this.emit('line', line);
    }
    getPrompt() { return this._prompt; }
    setPrompt(prompt) { this._prompt = String(prompt); }
    prompt() {
      if (this.closed) throw Object.assign(new Error('readline was closed'), { code: 'ERR_USE_AFTER_CLOSE' });
      writeTo(this.output, this._prompt);
    }
    question(query, options, cb) {
      if (typeof options === 'function') { cb = options; options = {}; }
      if (this.closed) throw Object.assign(new Error('readline was closed'), { code: 'ERR_USE_AFTER_CLOSE' });
      if (typeof cb !== 'function') return;
      const signal = options?.signal;
      if (signal?.aborted) return;
      writeTo(this.output, String(query));
      this.#questions.push(cb);
    }
    write(data) {
      if (this.closed) throw Object.assign(new Error('readline was closed'), { code: 'ERR_USE_AFTER_CLOSE' });
      if (typeof data === 'string') this.#feed(data);
    }
    pause() {
      if (typeof this.input.pause === 'function') this.input.pause();
      this.emit('pause');
      return this;
    }
    resume() {
      if (typeof this.input.resume === 'function') this.input.resume();
      this.emit('resume');
      return this;
    }
    close() {
      if (this.closed) return;
      this.closed = true;
      this.input.removeListener('data', this.#onData);
      this.input.removeListener('end', this.#onEnd);
      if (typeof this.input.pause === 'function') this.input.pause();
      this.emit('close');
    }
    [Symbol.asyncIterator]() {
      const lines = EventEmitter.on(this, 'line', { close: ['close'] });
      return {
        next: async () => {
          const r = await lines.next();
          return r.done ? r : { value: r.value[0], done: false };
        },
        return: async () => { this.close(); return lines.return(); },
        [Symbol.asyncIterator]() { return this; },
      };
    }
    [Symbol.dispose]() { this.close(); }
  }
  // As Node: util.promisify(rl.question) asks and resolves with the answer.
  Object.defineProperty(Interface.prototype.question, kCustomPromisify, {
    value: {
      question(query, options = {}) {
        return new Promise((resolve) => this.question(query, options, resolve));
      },
    }.question,
    configurable: true,
    writable: true,
  });

  const cursorTo = (stream, x, y, callback) => {
    if (typeof y === 'function') { callback = y; y = undefined; }
    return writeTo(stream, typeof y === 'number' ? `${CSI}${y + 1};${x + 1}H` : `${CSI}${x + 1}G`, callback);
  };
  const moveCursor = (stream, dx, dy, callback) => {
    let text = '';
    if (dx < 0) text += `${CSI}${-dx}D`; else if (dx > 0) text += `${CSI}${dx}C`;
    if (dy < 0) text += `${CSI}${-dy}A`; else if (dy > 0) text += `${CSI}${dy}B`;
    return writeTo(stream, text, callback);
  };
  const clearLine = (stream, dir, callback) => writeTo(stream, dir < 0 ? `${CSI}1K` : dir > 0 ? `${CSI}0K` : `${CSI}2K`, callback);
  const clearScreenDown = (stream, callback) => writeTo(stream, `${CSI}0J`, callback);
  const helpers = { clearLine, clearScreenDown, cursorTo, moveCursor, emitKeypressEvents() {} };

  class PromisesInterface extends Interface {
    question(query, options = {}) {
      return new Promise((resolve, reject) => {
        if (options?.signal?.aborted) {
          reject(Object.assign(new Error('The operation was aborted'), { name: 'AbortError', code: 'ABORT_ERR' }));
          return;
        }
        super.question(query, options, resolve);
      });
    }
  }
  Object.defineProperty(PromisesInterface, 'name', { value: 'Interface' });

  const readline = {
    Interface,
    createInterface: (input, output, completer, terminal) => new Interface(input, output, completer, terminal),
    ...helpers,
  };
  readline.promises = {
    Interface: PromisesInterface,
    createInterface: (input, output, completer, terminal) => new PromisesInterface(input, output, completer, terminal),
    Readline: class Readline {
      #stream;
      #todo = [];
      constructor(stream) { this.#stream = stream; }
      clearLine(dir) { this.#todo.push(dir < 0 ? `${CSI}1K` : dir > 0 ? `${CSI}0K` : `${CSI}2K`); return this; }
      clearScreenDown() { this.#todo.push(`${CSI}0J`); return this; }
      cursorTo(x, y) { this.#todo.push(typeof y === 'number' ? `${CSI}${y + 1};${x + 1}H` : `${CSI}${x + 1}G`); return this; }
      moveCursor(dx, dy) { let t = ''; if (dx) t += `${CSI}${Math.abs(dx)}${dx < 0 ? 'D' : 'C'}`; if (dy) t += `${CSI}${Math.abs(dy)}${dy < 0 ? 'A' : 'B'}`; this.#todo.push(t); return this; }
      commit() { const text = this.#todo.join(''); this.#todo = []; return new Promise((resolve) => writeTo(this.#stream, text, () => resolve())); }
      rollback() { this.#todo = []; return this; }
    },
  };
  return readline;
}
