// Bulk text ↔ bytes conversions (Buffer, TextEncoder/TextDecoder, atob/btoa) past BULK_MIN go to
// the host (worker/guest/platform/web/bulk-codec.js): the results must be Node's, byte for byte,
// including offsets into a larger buffer, invalid UTF-8, lone surrogates and atob's errors. The
// expected output is this very script run by the test's own Node.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { guestSuite } from '../helpers/both-engines.ts';

const SCRIPT = `
const md5 = (x) => require('crypto').createHash('md5').update(x).digest('hex');
const big = 'héllo wörld ✓ 😀 '.repeat(200) + '\\ud800x';
const b = Buffer.from(big);
console.log(b.length, Buffer.byteLength(big), md5(b), b.toString() === big.replace('\\ud800', '\\ufffd'));
const sub = b.subarray(3, 3000);
console.log(md5(sub.toString()), md5(sub.toString('latin1')), md5(sub.toString('ascii')), md5(sub.toString('hex')), md5(sub.toString('base64')), md5(sub.toString('base64url')));
console.log(md5(Buffer.from(b.toString('base64'), 'base64')), md5(Buffer.from(b.toString('base64url'), 'base64url')), md5(Buffer.from(b.toString('hex'), 'hex')), md5(Buffer.from(big, 'latin1')), md5(Buffer.from(big, 'ASCII')));
const bad = new Uint8Array(3000).fill(0xff); bad[5] = 0xe2; bad[6] = 0x82; bad[2999] = 0xf0;
console.log(md5(Buffer.from(bad).toString()), md5(new TextDecoder().decode(bad)), Buffer.from(bad).toString().length);
const te = new TextEncoder().encode(big); console.log(te.length, md5(te), te.constructor.name, Buffer.isBuffer(b), b.constructor.name);
console.log(new TextDecoder().decode(new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('x'.repeat(2000))])).length);
console.log(new TextDecoder('utf-8', { ignoreBOM: true }).decode(new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('y'.repeat(2000))])).length);
const latin = 'ÿ\\u0001abc'.repeat(500); const enc = btoa(latin);
console.log(md5(enc), atob(enc) === latin, atob(' ' + enc.slice(0, 2000) + '\\n').length);
for (const input of ['a'.repeat(2001), 'ab!'.repeat(700), 'QUJD='.repeat(500)]) { try { atob(input); console.log('decoded') } catch (e) { console.log(e.name, e.message) } }
try { btoa('€'.repeat(2000)) } catch (e) { console.log(e.name, e.message) }
const w = Buffer.alloc(10000); console.log(w.write(big, 5), md5(w));
`;

const EDGES = `
const b = Buffer.from('abc');
console.log(b.indexOf(''), b.indexOf('', 5), b.indexOf('', -1), b.lastIndexOf(''), b.includes(''), Buffer.alloc(0).indexOf(''), b.indexOf(Buffer.alloc(0), 1), b.indexOf('', 'utf8'));
console.log(Buffer.from('0g12', 'hex').length, Buffer.from('ab0g12', 'hex').toString('hex'), Buffer.from('abc').equals(new Uint8Array([97, 98, 99])));
console.log(require('util').inspect(Buffer.alloc(52)).slice(-20), require('util').inspect(Buffer.alloc(51)).slice(-16));
console.log(JSON.stringify(Buffer.from([0xff, 0xe2, 0x82, 0x41, 0xf0, 0x9f, 0x98]).toString()), JSON.stringify(Buffer.from([0xed, 0xa0, 0x80, 0xc0, 0xaf]).toString()));
try { Buffer.from('a').equals('a') } catch (e) { console.log(e.name) }
console.log(Buffer.poolSize);
`;

function hostOutput(script = SCRIPT): string {
  const lines: string[] = [];
  const log = (...a: unknown[]) => { lines.push(a.map(String).join(' ')); };
  // The same statements on the test's Node, with its require, Buffer and web globals.
  new Function('require', 'console', script)(createRequire(import.meta.url), { log });
  return `${lines.join('\n')}\n`;
}

guestSuite('bulk encoding on the host', (g) => {
  g.test('Buffer, TextEncoder/TextDecoder and atob/btoa on inputs past 1 KB match Node exactly', async (ctx) => {
    assert.equal(await ctx.output(SCRIPT, { heapMemoryMaxMb: 32 }), hostOutput());
  });

  g.test('Buffer edge cases match Node: empty needles, invalid hex, equals(Uint8Array), inspect tail, WHATWG replacement', async (ctx) => {
    assert.equal(await ctx.output(EDGES), hostOutput(EDGES));
  });
});
