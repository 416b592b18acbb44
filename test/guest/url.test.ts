// URL and URLSearchParams (issue 7): behaviour, setters, the searchParams link, and a
// differential corpus parsed both in the sandbox and by the host's Node.
import assert from 'node:assert/strict';
import { guestSuite } from '../helpers/both-engines.ts';
import { guestJson } from '../helpers/guest-json.ts';

const BASES = [undefined, 'https://example.com/a/b?c=d#e', 'file:///home/user/', 'http://[::1]:8080/x', 'sc://host/path'];
const INPUTS = [
  'https://example.com', 'HTTPS://EXAMPLE.COM:443/', 'http://example.com:80/a/../b/./c', 'http://user:pa ss@host/', 'http://u@h:0/',
  'http://1.2.3.4/', 'http://0x7f.1/', 'http://127.0.0.256/', 'http://[::ffff:1.2.3.4]/', 'http://[1:2::3]:65535/', 'http://[1:2::3]:65536/',
  'http://münchen.de/ä?ö=ü#ß', 'http://xn--mnchen-3ya.de', 'http://a b/', 'http://a%20b/', 'http://%41.com', 'http://ex\u00ADample.com/',
  '//x/y', '/abs', 'rel/ative', '../up', '?q=1', '#frag', '', ' \t\n http://trim.me/ \n', 'http://x/\ty\nz', 'http:\\\\back\\slash',
  'file:///C:/path', 'file://host/share', 'file:/etc/passwd', 'file:..', 'data:text/plain,hello world', 'javascript:alert(1)',
  'mailto:a@b.c', 'blob:https://a.b/uuid', 'ws://w.s:81/', 'wss://w.s:443/', 'ftp://f.t:21/', 'foo://bar/baz?x#y', 'foo:opaque path',
  'http://example.com/%zz%20%2f', 'http://example.com/?a=b&c=d e', 'http://example.com/#a b', 'http://ex.com/./.././../x',
  'http://ex.com/a/%2e%2E/b', 'http://ex.com:/', 'http://ex.com:08080/', 'http://@ex.com/', 'http://:@ex.com/', 'http://a:b@c:d@e/',
  'https://ex.com/😀?😀#😀', 'http://0/', 'http://4294967295/', 'http://4294967296/', 'http://1.2.3/', 'http://09.1/', 'http://[::]/',
  'non-special://host:99/path', 'non-special://[1::2]/', 'http://ex.com/?%', 'http://ex.com/\u0000', 'https:example.com', 'https:/example.com',
  'http://EX.com/A?B#C', 'http://ex.com/~user', "http://ex.com/'quote'", 'http://ex.com/<>"`{}|', 'HTTP://ex.com/path?query#hash',
];
const CORPUS: [string, string | undefined][] = [];
for (const input of INPUTS) for (const base of BASES) CORPUS.push([input, base]);

function components(u: URL | null): string[] | null {
  return u === null ? null : [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash];
}

guestSuite('URL', (g) => {
  g.test('parses, resolves against a base, and exposes every component', async (ctx) => {
    assert.equal(await ctx.output([
      'const u = new URL("../x?y=1#z", "https://user:pw@example.com:8443/a/b/c");',
      'console.log(u.href); console.log(u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash);',
      'console.log(String(u) === u.href, JSON.stringify({ u }), u instanceof URL, Object.prototype.toString.call(u));',
    ].join('\n')), [
      'https://user:pw@example.com:8443/a/x?y=1#z',
      'https://example.com:8443 https: user pw example.com:8443 example.com 8443 /a/x ?y=1 #z',
      'true {"u":"https://user:pw@example.com:8443/a/x?y=1#z"} true [object URL]',
      '',
    ].join('\n'));
  });

  g.test('invalid input throws TypeError ERR_INVALID_URL; canParse and parse do not throw', async (ctx) => {
    assert.equal(await ctx.output([
      'try { new URL("nope") } catch (e) { console.log(e.name, e.code, e.message, e.input) }',
      'try { new URL("/p", "also nope") } catch (e) { console.log(e.code, e.base) }',
      'console.log(URL.canParse("https://a"), URL.canParse("a"), URL.canParse("/p", "https://b"), URL.parse("x"), URL.parse("/q", "http://h").href);',
    ].join('\n')), 'TypeError ERR_INVALID_URL Invalid URL nope\nERR_INVALID_URL also nope\ntrue false true null http://h/q\n');
  });

  g.test('setters follow the URL Standard and keep searchParams in step', async (ctx) => {
    assert.equal(await ctx.output([
      'const u = new URL("http://example.com/p?a=1");',
      'u.protocol = "https"; u.hostname = "EXAMPLE.org"; u.port = "8443"; u.pathname = "/x y"; u.hash = "h";',
      'u.searchParams.append("b", "2 3"); console.log(u.href);',
      'u.search = "?c=4"; console.log(u.searchParams.get("c"), u.searchParams.has("a"));',
      'u.port = "443"; u.username = "me"; console.log(u.href);',
      'u.searchParams.delete("c"); console.log(u.href);',
      'u.protocol = "ftp:"; u.port = "abc"; console.log(u.href);',
      'try { u.href = "bad" } catch (e) { console.log(e.code) }',
    ].join('\n')), [
      'https://example.org:8443/x%20y?a=1&b=2+3#h',
      '4 false',
      'https://me@example.org/x%20y?c=4#h',
      'https://me@example.org/x%20y#h',
      'ftp://me@example.org/x%20y#h',
      'ERR_INVALID_URL',
      '',
    ].join('\n'));
  });

  g.test('URLSearchParams: constructors, methods, iteration, sort and serialization', async (ctx) => {
    assert.equal(await ctx.output([
      'const p = new URLSearchParams("?b=2&a=1&a=3&c=%20x+y&d");',
      'console.log(p.get("a"), p.getAll("a").join(), p.get("c"), JSON.stringify(p.get("d")), p.get("zz"), p.size);',
      'p.sort(); console.log(p.toString());',
      'p.set("a", "9"); p.delete("d"); p.append("é", "&="); console.log(String(p), p.has("a", "9"), p.has("a", "1"));',
      'console.log([...p.keys()].join(), [...p.values()].join("|"), JSON.stringify([...p]));',
      'console.log(new URLSearchParams({ x: 1, y: "two" }).toString(), new URLSearchParams([["k", "v"], ["k", "w"]]).toString());',
      'const seen = []; new URLSearchParams("a=1&b=2").forEach((v, k) => seen.push(k + v)); console.log(seen.join());',
      'console.log(new URLSearchParams("a=%zz&b=%E2%82%AC&c=%FF").toString(), new URLSearchParams("a=%FF").get("a") === "\\ufffd");',
    ].join('\n')), [
      '1 1,3  x y "" null 5',
      'a=1&a=3&b=2&c=+x+y&d=',
      'a=9&b=2&c=+x+y&%C3%A9=%26%3D true false',
      'a,b,c,é 9|2| x y|&= [["a","9"],["b","2"],["c"," x y"],["é","&="]]',
      'x=1&y=two k=v&k=w',
      'a1,b2',
      'a=%25zz&b=%E2%82%AC&c=%EF%BF%BD true',
      '',
    ].join('\n'));
  });

  g.test(`differential: ${CORPUS.length} (input, base) pairs parse exactly as in Node`, async (ctx) => {
    const guest = await guestJson<(string[] | null)[]>(ctx, [
      `const corpus = ${JSON.stringify(CORPUS)};`,
      'return corpus.map(([i, b]) => { const u = URL.parse(i, b ?? undefined); return u === null ? null : [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash]; });',
    ].join('\n'));
    const host = CORPUS.map(([i, b]) => components(URL.parse(i, b)));
    assert.equal(guest.length, host.length);
    for (let i = 0; i < host.length; i++) assert.deepEqual(guest[i], host[i], `URL.parse(${JSON.stringify(CORPUS[i])})`);
    assert.ok(host.filter((x) => x === null).length > 20, 'the corpus covers failures too');
  });

  g.test('differential: URLSearchParams parse and serialize round trips match Node', async (ctx) => {
    const inputs = ['a=1&b=2', 'a+b=c+d', '%20%2B%3D&=&==&&', 'é=ü&€', 'x=%E2%82', '?q', 'a=b=c', ';a=1;b=2', '%00=%0A', 'k=\u{1F600}&\u{1F600}'];
    const guest = await guestJson<[string, string][][]>(ctx, `return ${JSON.stringify(inputs)}.map((s) => { const p = new URLSearchParams(s); return [[...p], p.toString()]; });`);
    const host = inputs.map((s) => { const p = new URLSearchParams(s); return [[...p], p.toString()]; });
    assert.deepEqual(guest, host);
  });
  g.test('URLs parsed from the same input are independent (parse results are cached and shared safely)', async (ctx) => {
    assert.equal(await ctx.output([
      'const a = new URL("http://a/b?q=1"); const b = new URL("http://a/b?q=1");',
      'a.pathname = "/c"; a.searchParams.set("q", "2"); b.hash = "h";',
      'console.log(a.href, b.href, new URL("http://a/b?q=1").href, URL.parse("http://a/b?q=1").search);',
      'console.log(URL.canParse("bad"), URL.canParse("bad"), new URL("x", "http://h/").href, new URL("x", "http://g/").href);',
    ].join('\n')), 'http://a/c?q=2 http://a/b?q=1#h http://a/b?q=1 ?q=1\nfalse false http://h/x http://g/x\n');
  });
});
