// util.MIMEType and util.MIMEParams (Node's API over the WHATWG MIME Sniffing grammar). Parsing a
// string runs the host's node:util parser (op util.mime), so what is accepted, normalised and
// rejected is Node's; setters, parameters and serialisation are Node's rules, written here.
import core from 'runjs:part/core';

const { nodeError } = core.shared;
const NOT_TOKEN = /[^!#$%&'*+\-.^_`|~A-Za-z0-9]/;
const NOT_QUOTED_STRING = /[^\t\u0020-~\u0080-\u00FF]/;

function syntaxError(production, str, index) {
  return nodeError(TypeError, 'ERR_INVALID_MIME_SYNTAX', `The MIME syntax for a ${production} in "${str}" is invalid${index === -1 ? '' : ` at ${index}`}`);
}

function token(production, value) {
  const v = `${value}`;
  const bad = v.search(NOT_TOKEN);
  if (v.length === 0 || bad !== -1) throw syntaxError(production, v, bad);
  return v;
}

function encode(value) {
  if (value.length === 0) return '""';
  if (value.search(NOT_TOKEN) === -1) return value;
  return `"${value.replace(/["\\]/g, '\\$&')}"`;
}

const paramData = new WeakMap(); // MIMEParams → Map

export class MIMEParams {
  constructor() { paramData.set(this, new Map()); }
  delete(name) { paramData.get(this).delete(`${name}`); }
  get(name) { const m = paramData.get(this); const k = `${name}`; return m.has(k) ? m.get(k) : null; }
  has(name) { return paramData.get(this).has(`${name}`); }
  set(name, value) {
    const n = token('parameter name', name);
    const v = `${value}`;
    const bad = v.search(NOT_QUOTED_STRING);
    if (bad !== -1) throw syntaxError('parameter value', v, bad);
    paramData.get(this).set(n, v);
  }
  *entries() { yield* paramData.get(this).entries(); }
  *keys() { yield* paramData.get(this).keys(); }
  *values() { yield* paramData.get(this).values(); }
  [Symbol.iterator]() { return this.entries(); }
  toString() {
    let out = '';
    for (const [k, v] of paramData.get(this)) out += `${out.length > 0 ? ';' : ''}${k}=${encode(v)}`;
    return out;
  }
  toJSON() { return this.toString(); }
}

export class MIMEType {
  #type; #subtype; #params;
  constructor(string) {
    const [type, subtype, params] = core.host.op('util.mime', `${string}`);
    this.#type = type;
    this.#subtype = subtype;
    this.#params = new MIMEParams();
    const m = paramData.get(this.#params);
    for (const [k, v] of params) m.set(k, v);
  }
  get type() { return this.#type; }
  set type(v) { this.#type = token('type', v).toLowerCase(); }
  get subtype() { return this.#subtype; }
  set subtype(v) { this.#subtype = token('subtype', v).toLowerCase(); }
  get essence() { return `${this.#type}/${this.#subtype}`; }
  get params() { return this.#params; }
  toString() {
    const p = this.#params.toString();
    return `${this.essence}${p.length > 0 ? `;${p}` : ''}`;
  }
  toJSON() { return this.toString(); }
}
