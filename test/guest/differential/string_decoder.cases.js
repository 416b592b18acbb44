// node:string_decoder: writes split inside characters, end(), encodings and errors.
const SD = () => require('node:string_decoder').StringDecoder;
const corpus = {
  'utf8 split euro': () => { const d = new (SD())('utf8'); return [d.write(Buffer.from([0xe2])), d.write(Buffer.from([0x82])), d.write(Buffer.from([0xac])), d.end()]; },
  'utf8 incomplete at end': () => { const d = new (SD())(); return [d.write(Buffer.from([0xf0, 0x9f])), d.end()]; },
  'utf16le split': () => { const d = new (SD())('utf16le'); return [d.write(Buffer.from([0x3d])), d.write(Buffer.from([0xd8, 0x4d])), d.write(Buffer.from([0xdc])), d.end()]; },
  'base64 across writes': () => { const d = new (SD())('base64'); return [d.write(Buffer.from('ab')), d.write(Buffer.from('c')), d.end(Buffer.from('d'))]; },
  'hex and latin1': () => [new (SD())('hex').write(Buffer.from('hi')), new (SD())('latin1').write(Buffer.from([0xe9]))],
  'unknown encoding': () => new (SD())('nope'),
  'write non-buffer': () => new (SD())().write(5),
  'encoding normalised': () => [new (SD())('UTF-8').encoding, new (SD())('ucs2').encoding, new (SD())('binary').encoding],
  'lastNeed/lastTotal': () => { const d = new (SD())(); d.write(Buffer.from([0xe2, 0x82])); return [d.lastNeed, d.lastTotal, d.lastChar.length]; },
};
