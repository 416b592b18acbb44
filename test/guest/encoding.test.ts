// TextEncoder/TextDecoder and atob/btoa (issue 7), with a differential corpus of invalid and
// split byte sequences decoded both in the sandbox and by the host's Node.
import assert from 'node:assert/strict';
import { guestSuite } from '../helpers/both-engines.ts';
import { guestJson } from '../helpers/guest-json.ts';

/** A deterministic pseudo-random byte source (the corpus must be the same on every run). */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return s & 0xff;
  };
}

const CRAFTED: number[][] = [
  [], [0x41], [0xef, 0xbb, 0xbf, 0x41], [0xef, 0xbb, 0xbf], [0xc0, 0x80], [0xc1, 0xbf], [0xe0, 0x80, 0x80], [0xe0, 0x9f, 0xbf],
  [0xed, 0xa0, 0x80], [0xed, 0xbf, 0xbf], [0xf0, 0x8f, 0xbf, 0xbf], [0xf4, 0x90, 0x80, 0x80], [0xf5, 0x80], [0xff], [0xfe, 0xff],
  [0x80], [0xbf, 0x80], [0xc2], [0xe2, 0x82], [0xf0, 0x9f, 0x98], [0xf0, 0x9f, 0x98, 0x80], [0xe2, 0x82, 0xac, 0xe2, 0x82],
  [0x61, 0xc2, 0x62], [0xe2, 0x41, 0x82, 0xac], [0xf0, 0x9f, 0x41, 0x98, 0x80], [0xc3, 0xa9, 0x00, 0x7f], [0xe0, 0xa0, 0x80],
  [0xef, 0xbf, 0xbf], [0xf4, 0x8f, 0xbf, 0xbf], [0xd8, 0x00], [0x00, 0xd8, 0x00, 0xdc], [0x3d, 0xd8, 0x00, 0xde], [0x00, 0xdc, 0x41, 0x00],
];
const next = prng(7);
const RANDOM: number[][] = Array.from({ length: 120 }, (_, i) => Array.from({ length: 1 + (i % 23) }, () => (i % 3 === 0 ? next() & 0x7f : next())));
const SEQUENCES = [...CRAFTED, ...RANDOM];
const UTF = ['utf-8', 'utf-16le', 'utf-16be'];
const LEGACY = ['windows-1252', 'iso-8859-2', 'koi8-r', 'shift_jis', 'gbk', 'gb18030', 'big5', 'euc-kr', 'euc-jp'];
// Node's own gb18030 decoder, and its streaming gbk decoder, throw on some malformed input even
// when not fatal (an ICU quirk runjs avoids: it replaces, as the Encoding Standard says), so
// random bytes skip those.
const LEGACY_RANDOM = LEGACY.filter((e) => e !== 'gb18030');
const LEGACY_RANDOM_SPLIT = LEGACY_RANDOM.filter((e) => e !== 'gbk');

/** Text that every legacy encoding above can encode (ASCII plus a few of each script's characters), as bytes. */
const VALID_LEGACY = [[0x48, 0x69], [0x82, 0xa0, 0x82, 0xa2, 0x41], [0xc4, 0xe3, 0xba, 0xc3], [0xa4, 0x40, 0xa4, 0x41], [0xb0, 0xa1, 0xb0, 0xa2]];

type Outcome = string | { error: string };
function decodeAll(encodings: string[], seqs: number[][], fatal: boolean, ignoreBOM: boolean, split: boolean): Outcome[] {
  const out: Outcome[] = [];
  for (const enc of encodings) {
    for (const s of seqs) {
      try {
        const d = new TextDecoder(enc, { fatal, ignoreBOM });
        const bytes = new Uint8Array(s);
        if (!split) out.push(d.decode(bytes));
        else {
          let text = '';
          for (let i = 0; i < bytes.length; i++) text += d.decode(bytes.subarray(i, i + 1), { stream: true });
          out.push(text + d.decode());
        }
      } catch (e) {
        out.push({ error: (e as Error).name });
      }
    }
  }
  return out;
}

guestSuite('TextEncoder/TextDecoder', (g) => {
  g.test('encode, encodeInto, and the decoder options and labels', async (ctx) => {
    assert.equal(await ctx.output([
      'const e = new TextEncoder(); console.log(e.encoding, Array.from(e.encode("a€😀\\ud800")).join(","));',
      'const dest = new Uint8Array(5); console.log(JSON.stringify(e.encodeInto("a€😀", dest)), Array.from(dest).join(","));',
      'const d = new TextDecoder(" UTF8 ", { fatal: true }); console.log(d.encoding, d.fatal, d.ignoreBOM);',
      'try { d.decode(new Uint8Array([0xff])) } catch (err) { console.log(err.name, err.code) }',
      'console.log(JSON.stringify(new TextDecoder("utf-8", { ignoreBOM: true }).decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x41]))));',
      'console.log(new TextDecoder("latin1").encoding, new TextDecoder("ucs-2").encoding, new TextDecoder("sjis").encoding);',
      'try { new TextDecoder("nope") } catch (err) { console.log(err.name, err.code, err.message) }',
      'try { new TextDecoder("replacement") } catch (err) { console.log(err.name) }',
      'console.log(new TextDecoder().decode(new Uint16Array([0x6968]).buffer), new TextDecoder("windows-1252").decode(new Uint8Array([0x80, 0xe9])));',
      'console.log(new TextDecoder("x-user-defined").decode(new Uint8Array([0x41, 0x80])).charCodeAt(1).toString(16));',
    ].join('\n')), [
      'utf-8 97,226,130,172,240,159,152,128,239,191,189',
      '{"read":2,"written":4} 97,226,130,172,0',
      'utf-8 true false',
      'TypeError ERR_ENCODING_INVALID_ENCODED_DATA',
      '"\ufeffA"',
      'windows-1252 utf-16le shift_jis',
      'RangeError ERR_ENCODING_NOT_SUPPORTED The "nope" encoding is not supported',
      'RangeError',
      'hi €é',
      'f780',
      '',
    ].join('\n'));
  });

  g.test('streaming decode keeps split characters, for UTF-8 and the host-decoded encodings', async (ctx) => {
    assert.equal(await ctx.output([
      'const euro = [0xe2, 0x82, 0xac]; const d = new TextDecoder();',
      'console.log(JSON.stringify([d.decode(new Uint8Array(euro.slice(0, 1)), { stream: true }), d.decode(new Uint8Array(euro.slice(1)), { stream: true }), d.decode()]));',
      'const sj = new TextDecoder("shift_jis"); const bytes = [0x82, 0xa0, 0x82, 0xa2];',
      'console.log(JSON.stringify([sj.decode(new Uint8Array(bytes.slice(0, 3)), { stream: true }), sj.decode(new Uint8Array(bytes.slice(3)))]));',
    ].join('\n')), '["","€",""]\n["あ","い"]\n');
  });

  g.test('atob and btoa, with the errors Node gives', async (ctx) => {
    assert.equal(await ctx.output([
      'console.log(btoa("hello\\u00ff"), atob(" aGVs bG8= "), atob("YQ"), JSON.stringify(atob("")));',
      'for (const bad of ["a", "ab=c", "!!!!", "abcde"]) { try { atob(bad) } catch (e) { console.log(e.name, e.message) } }',
      'try { btoa("€") } catch (e) { console.log(e.name, e.message, e instanceof DOMException) }',
    ].join('\n')), [
      'aGVsbG// hello a ""',
      'InvalidCharacterError The string to be decoded is not correctly encoded.',
      'InvalidCharacterError Invalid character',
      'InvalidCharacterError Invalid character',
      'InvalidCharacterError The string to be decoded is not correctly encoded.',
      'InvalidCharacterError Invalid character true',
      '',
    ].join('\n'));
  });

  g.test(`differential: ${SEQUENCES.length} byte sequences × UTF-8/16 × fatal/replacement × whole/split decode as in Node`, async (ctx) => {
    const run = `${decodeAll.toString()}\nconst seqs = ${JSON.stringify(SEQUENCES)}; const enc = ${JSON.stringify(UTF)};\nreturn [decodeAll(enc, seqs, false, false, false), decodeAll(enc, seqs, true, false, false), decodeAll(enc, seqs, false, true, true), decodeAll(enc, seqs, true, false, true)];`;
    const guest = await guestJson<Outcome[][]>(ctx, run);
    const host = [decodeAll(UTF, SEQUENCES, false, false, false), decodeAll(UTF, SEQUENCES, true, false, false), decodeAll(UTF, SEQUENCES, false, true, true), decodeAll(UTF, SEQUENCES, true, false, true)];
    for (let m = 0; m < host.length; m++) {
      for (let i = 0; i < host[m]!.length; i++) {
        const seq = SEQUENCES[i % SEQUENCES.length];
        assert.deepEqual(guest[m]![i], host[m]![i], `mode ${m}, ${UTF[Math.floor(i / SEQUENCES.length)]} ${JSON.stringify(seq)}`);
      }
    }
  });

  g.test('differential: legacy encodings (host-decoded) over random bytes, whole and split', async (ctx) => {
    const seqs = RANDOM.slice(0, 40);
    const run = `${decodeAll.toString()}\nconst seqs = ${JSON.stringify(seqs)};\nconst valid = ${JSON.stringify(VALID_LEGACY)};\nreturn [decodeAll(${JSON.stringify(LEGACY_RANDOM)}, seqs, false, false, false), decodeAll(${JSON.stringify(LEGACY_RANDOM_SPLIT)}, seqs, false, false, true), decodeAll(${JSON.stringify(LEGACY)}, valid, true, false, true)];`;
    const guest = await guestJson<Outcome[][]>(ctx, run);
    assert.deepEqual(guest, [decodeAll(LEGACY_RANDOM, seqs, false, false, false), decodeAll(LEGACY_RANDOM_SPLIT, seqs, false, false, true), decodeAll(LEGACY, VALID_LEGACY, true, false, true)]);
  });

  g.test('differential: every Encoding Standard label resolves to the encoding Node names', async (ctx) => {
    const labels = ['utf8', 'unicode-1-1-utf-8', 'cp866', 'csisolatin2', 'iso_8859-3:1988', 'l4', 'cyrillic', 'arabic', 'greek8', 'visual', 'logical',
      'l6', 'iso885913', 'iso8859-14', 'l9', 'koi', 'koi8-ru', 'mac', 'tis-620', 'x-cp1250', 'cp1251', 'ascii', 'us-ascii', 'cp1253', 'latin5',
      'cp1255', 'cp1256', 'cp1257', 'cp1258', 'x-mac-ukrainian', 'chinese', 'gb18030', 'big5-hkscs', 'x-euc-jp', 'csiso2022jp', 'ms932',
      'windows-949', 'unicodefffe', 'unicode', 'utf-16', 'UTF-16BE', ' \tiso-8859-15\n'];
    const guest = await guestJson<string[]>(ctx, `return ${JSON.stringify(labels)}.map((l) => new TextDecoder(l).encoding);`);
    assert.deepEqual(guest, labels.map((l) => new TextDecoder(l).encoding));
  });
});
