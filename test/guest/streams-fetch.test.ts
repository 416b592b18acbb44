// WHATWG streams, Text*Stream, Compression/DecompressionStream, and the Fetch classes (issue 7).
import assert from 'node:assert/strict';
import { gunzipSync, gzipSync } from 'node:zlib';
import { guestSuite } from '../helpers/both-engines.ts';

guestSuite('streams and fetch classes', (g) => {
  g.test('ReadableStream/WritableStream/TransformStream with readers, writers, controllers and strategies', async (ctx) => {
    assert.equal(await ctx.output([
      'const rs = new ReadableStream({ start(c) { c.enqueue(1); c.enqueue(2); c.close(); } }, new CountQueuingStrategy({ highWaterMark: 2 }));',
      'const r = rs.getReader(); console.log(JSON.stringify(await r.read()), JSON.stringify(await r.read()), JSON.stringify(await r.read()), rs.locked); r.releaseLock();',
      'const written = []; const ws = new WritableStream({ write(chunk) { written.push(chunk) }, close() { written.push("closed") } });',
      'const w = ws.getWriter(); await w.write("a"); await w.write("b"); await w.close(); console.log(written.join());',
      'const upper = new TransformStream({ transform(chunk, c) { c.enqueue(String(chunk).toUpperCase()) } });',
      'const out = []; await ReadableStream.from(["x", "y"]).pipeThrough(upper).pipeTo(new WritableStream({ write(c) { out.push(c) } })); console.log(out.join());',
      'const [t1, t2] = ReadableStream.from([1, 2, 3]).tee(); const sum = async (s) => { let n = 0; for await (const v of s) n += v; return n }; console.log(await sum(t1), await sum(t2));',
      'const bytes = new ReadableStream({ type: "bytes", start(c) { c.enqueue(new Uint8Array([1, 2, 3])); c.close(); } });',
      'const byob = bytes.getReader({ mode: "byob" }); const { value } = await byob.read(new Uint8Array(8)); console.log(value.length, value[2]);',
      'const errored = new ReadableStream({ start(c) { c.error(new Error("nope")) } }); try { await errored.getReader().read() } catch (e) { console.log(e.message) }',
      'const bl = new ByteLengthQueuingStrategy({ highWaterMark: 16 }); console.log(bl.highWaterMark, bl.size(new Uint8Array(5)));',
      'const ac = new AbortController(); const slow = new ReadableStream({ pull(c) { return new Promise((r) => setTimeout(() => { try { c.enqueue(1) } catch {} r() }, 5)) } });',
      'setTimeout(() => ac.abort(), 20); try { await slow.pipeTo(new WritableStream(), { signal: ac.signal }) } catch (e) { console.log("pipe aborted", e.name) }',
    ].join('\n')), [
      '{"value":1,"done":false} {"value":2,"done":false} {"done":true} true',
      'a,b,closed',
      'X,Y',
      '6 6',
      '3 3',
      'nope',
      '16 5',
      'pipe aborted AbortError',
      '',
    ].join('\n'));
  });

  g.test('TextEncoderStream/TextDecoderStream handle characters split across chunks', async (ctx) => {
    assert.equal(await ctx.output([
      'const parts = [new Uint8Array([0xe2, 0x82]), new Uint8Array([0xac, 0x41])];',
      'let text = ""; for await (const t of ReadableStream.from(parts).pipeThrough(new TextDecoderStream())) text += t; console.log(text);',
      'const chunks = []; for await (const b of ReadableStream.from(["\\ud83d", "\\ude00!"]).pipeThrough(new TextEncoderStream())) chunks.push(...b); console.log(chunks.join());',
      'const d = new TextDecoderStream("utf-16le", { fatal: true }); console.log(d.encoding, d.fatal);',
    ].join('\n')), '€A\n240,159,152,128,33\nutf-16le true\n');
  });

  g.test('CompressionStream/DecompressionStream: gzip, deflate, deflate-raw round trips, interop with zlib, errors', async (ctx) => {
    const gz = gzipSync('from the host').toString('base64');
    const out = await ctx.output([
      'const bytes = (s) => new Response(s).arrayBuffer().then((b) => new Uint8Array(b));',
      'for (const f of ["gzip", "deflate", "deflate-raw"]) {',
      '  const packed = await bytes(new Blob(["hello ".repeat(100)]).stream().pipeThrough(new CompressionStream(f)));',
      '  const back = await new Response(new Blob([packed]).stream().pipeThrough(new DecompressionStream(f))).text();',
      '  console.log(f, packed.length < 100, back.length, back.slice(0, 6));',
      '}',
      `const hostGz = Uint8Array.from(atob(${JSON.stringify(gz)}), (c) => c.charCodeAt(0));`,
      'console.log(await new Response(new Blob([hostGz]).stream().pipeThrough(new DecompressionStream("gzip"))).text());',
      'const mine = await bytes(new Blob(["to the host"]).stream().pipeThrough(new CompressionStream("gzip"))); console.log(btoa(String.fromCharCode(...mine)));',
      'try { new CompressionStream("zip") } catch (e) { console.log(e.name) }',
      'try { await new Response(new Blob([new Uint8Array([1, 2, 3])]).stream().pipeThrough(new DecompressionStream("gzip"))).text() } catch (e) { console.log("bad data", e.name) }',
    ].join('\n'));
    const lines = out.split('\n');
    assert.deepEqual(lines.slice(0, 4), ['gzip true 600 hello ', 'deflate true 600 hello ', 'deflate-raw true 600 hello ', 'from the host']);
    assert.equal(gunzipSync(Buffer.from(lines[4]!, 'base64')).toString(), 'to the host');
    assert.deepEqual(lines.slice(5), ['TypeError', 'bad data TypeError', '']);
  });

  g.test('Blob and File', async (ctx) => {
    assert.equal(await ctx.output([
      'const b = new Blob(["ab", new Uint8Array([99]), new Blob(["d"])], { type: "Text/Plain" });',
      'console.log(b.size, b.type, await b.text(), await b.slice(1, 3).text(), await b.slice(-2).text(), new Uint8Array(await b.arrayBuffer())[0], (await b.bytes()).length);',
      'let n = 0; for await (const c of b.stream()) n += c.length; console.log(n);',
      'const f = new File(["x"], "a.txt", { type: "text/plain", lastModified: 5 }); console.log(f.name, f.lastModified, f.size, f instanceof Blob, Object.prototype.toString.call(f));',
      'console.log(await new Blob(["a\\r\\nb"], { endings: "native" }).text() === "a\\nb");',
    ].join('\n')), '4 text/plain abcd bc cd 97 4\n4\na.txt 5 1 true [object File]\ntrue\n');
  });

  g.test('Headers, FormData, Request and Response', async (ctx) => {
    assert.equal(await ctx.output([
      'const h = new Headers([["B", "2"], ["a", " 1 "]]); h.append("a", "3"); h.append("Set-Cookie", "x=1"); h.append("Set-Cookie", "y=2");',
      'console.log(h.get("A"), h.has("b"), JSON.stringify([...h]), h.getSetCookie().length);',
      'h.delete("b"); h.set("c", "4"); console.log([...h.keys()].join());',
      'try { h.append("bad name", "v") } catch (e) { console.log(e.name) }',
      'const fd = new FormData(); fd.append("a", "1"); fd.append("a", "2"); fd.set("b", new Blob(["f"]), "f.bin"); fd.append("c", "3"); fd.delete("c");',
      'console.log(fd.getAll("a").join(), fd.get("b").name, fd.has("c"), [...fd.keys()].join());',
      'const req = new Request("https://example.com/api?q=1", { method: "post", headers: { "x-k": "v" }, body: JSON.stringify({ n: 1 }) });',
      'console.log(req.method, req.url, req.headers.get("content-type"), req.bodyUsed, (await req.clone().json()).n, await req.text(), req.bodyUsed);',
      'try { await req.text() } catch (e) { console.log(e.name) }',
      'try { new Request("/relative") } catch (e) { console.log(e.name) } try { new Request("https://a.b", { method: "GET", body: "x" }) } catch (e) { console.log(e.name) }',
      'const form = new Request("https://a.b", { method: "POST", body: fd }); const parsed = await form.formData(); console.log(parsed.getAll("a").join(), await parsed.get("b").text());',
      'const urlenc = new Response(new URLSearchParams({ k: "v w" })); console.log(urlenc.headers.get("content-type"), (await urlenc.formData()).get("k"));',
      'const res = new Response("body", { status: 201, statusText: "Created", headers: { "x": "y" } }); console.log(res.status, res.ok, res.statusText, res.headers.get("x"), await res.text());',
      'const j = Response.json({ a: [1] }); console.log(j.headers.get("content-type"), JSON.stringify(await j.json()));',
      'const r = Response.redirect("https://a.b/c", 307); console.log(r.status, r.headers.get("location")); try { r.headers.set("x", "y") } catch (e) { console.log(e.name) }',
      'console.log(Response.error().type, Response.error().status); try { new Response("x", { status: 204 }) } catch (e) { console.log(e.name) } try { new Response(null, { status: 99 }) } catch (e) { console.log(e.name) }',
      'const streamed = new Response(new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode("st")); c.close() } })); console.log(await streamed.text());',
      'console.log(typeof fetch, typeof Request, typeof Response, typeof Headers);',
    ].join('\n')), [
      '1, 3 true [["a","1, 3"],["b","2"],["set-cookie","x=1"],["set-cookie","y=2"]] 2',
      'a,c,set-cookie,set-cookie',
      'TypeError',
      '1,2 f.bin false a,a,b',
      'POST https://example.com/api?q=1 text/plain;charset=UTF-8 false 1 {"n":1} true',
      'TypeError',
      'TypeError', 'TypeError',
      '1,2 f',
      'application/x-www-form-urlencoded;charset=UTF-8 v w',
      '201 true Created y body',
      'application/json {"a":[1]}',
      '307 https://a.b/c', 'TypeError',
      'error 0', 'TypeError', 'RangeError',
      'st',
      'function function function function',
      '',
    ].join('\n'));
  });
});
