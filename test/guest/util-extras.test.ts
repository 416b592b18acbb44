// util.parseArgs and util.MIMEType (parsed by the host's node:util): results, tokens, serialisation
// and errors must match the host Node's, on both engines; without `args` parseArgs parses runjs's
// (empty) argv.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { guestSuite } from '../helpers/both-engines.ts';
import { guestJson } from '../helpers/guest-json.ts';

const hostRequire = createRequire(import.meta.url);
const AsyncFunction = (async () => {}).constructor as new (...args: string[]) => (req: NodeJS.Require) => Promise<unknown>;

const CASES: Record<string, string> = {
  'parseArgs with short, string, multiple/default options, positionals and tokens': `const { parseArgs, inspect } = require('util'); const r = parseArgs({ args: ['-f', '--bar', 'b', '--bar=c', 'pos', '--', '--x'], options: { foo: { type: 'boolean', short: 'f' }, bar: { type: 'string', multiple: true }, many: { type: 'string', multiple: true, default: ['d'] } }, allowPositionals: true, tokens: true }); return [inspect(r.values), r.positionals, inspect(r.tokens, { depth: 5 }), Object.getPrototypeOf(r.values), Object.keys(r)];`,
  'parseArgs with allowNegative and strict: false': `const { parseArgs, inspect } = require('util'); return [inspect(parseArgs({ args: ['--no-color', '--extra', 'v'], options: { color: { type: 'boolean' } }, allowNegative: true, strict: false }))];`,
  'MIMEType: parsing, normalisation, setters, params, serialisation and errors': `const { MIMEType, MIMEParams } = require('util'); const m = new MIMEType('Text/HTML; Charset="utf-8"; q=a;empty=""'); const out = [m.type, m.subtype, m.essence, String(m), JSON.stringify(m), [...m.params], m.params.get('charset'), m.params.get('nope'), m.params.has('q')]; m.type = 'APPLICATION'; m.subtype = 'Json'; m.params.set('x', 'has space'); m.params.set('y', 'quote"back\\\\'); m.params.delete('q'); out.push(String(m), [...m.params.keys()], [...m.params.values()]); for (const f of [() => new MIMEType('nope'), () => { m.type = 'a b' }, () => { m.subtype = '' }, () => m.params.set('a b', 'v'), () => m.params.set('k', 'é\\u0100')]) { try { f(); out.push('no error') } catch (e) { out.push([e.name, e.code, e.message]) } } const p = new MIMEParams(); p.set('a', '1'); out.push(String(p), m.params instanceof MIMEParams); return out;`,
  'parseArgs errors': `const { parseArgs } = require('util'); const out = []; for (const c of [{ args: ['--nope'] }, { args: ['x'] }, { args: ['--s'], options: { s: { type: 'string' } } }, { args: [], options: { s: { type: 'nope' } } }]) { try { parseArgs(c); out.push('no error'); } catch (e) { out.push([e.name, e.code, e.message]); } } return out;`,
};

guestSuite('util extras', (g) => {
  for (const [title, body] of Object.entries(CASES)) {
    g.test(`differential: ${title}`, async (ctx) => {
      const host = JSON.parse(JSON.stringify(await new AsyncFunction('require', body)(hostRequire))) as unknown;
      assert.deepEqual(await guestJson(ctx, body), host);
    });
  }

  g.test('parseArgs without args parses the script\'s (empty) argv', async (ctx) => {
    assert.equal(await ctx.output('import { parseArgs } from "node:util"; const r = parseArgs({ options: { v: { type: "boolean" } } }); console.log(JSON.stringify(r.values), r.positionals.length);'), '{} 0\n');
  });
});
