// node:stream/consumers: read a whole stream (Node Readable, web ReadableStream or any async
// iterable) into text, JSON, a Buffer, bytes, an ArrayBuffer or a Blob, as Node does.
import bufferModule from 'buffer';

const { Buffer } = bufferModule;
import core from 'runjs:part/core';

async function chunks(stream) {
  const out = [];
  for await (const chunk of stream) out.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
  return out;
}

async function buffer(stream) {
  return Buffer.concat((await chunks(stream)).map((c) => (c instanceof Uint8Array ? c : Buffer.from(c))));
}

async function bytes(stream) {
  const b = await buffer(stream);
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

async function text(stream) {
  const decoder = new core.globals.TextDecoder();
  let str = '';
  for await (const chunk of stream) str += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
  return str + decoder.decode();
}

async function json(stream) {
  return JSON.parse(await text(stream));
}

async function arrayBuffer(stream) {
  const b = await buffer(stream);
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
}

async function blob(stream) {
  const { Blob } = core.host.requirePart('fetch').globals;
  return new Blob(await chunks(stream));
}

export const consumers = { arrayBuffer, blob, buffer, bytes, json, text };
