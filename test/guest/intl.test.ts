// Intl formats the same on both engines: V8 has its own ICU; on QuickJS every call is bridged to
// the host's ICU (worker/guest/intl.js → worker/ops/intl/). Time zones are pinned to UTC.
import assert from 'node:assert/strict';
import { guestSuite } from '../helpers/both-engines.ts';

guestSuite('Intl', (g) => {
  g.test('NumberFormat: currency, percent, compact, units, parts, BigInt and decimal strings', async (ctx) => {
    assert.equal(await ctx.output([
      'console.log(new Intl.NumberFormat("de-DE", { style: "currency", currency: "EUR" }).format(1234.5));',
      'console.log(new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(-0.5));',
      'console.log(new Intl.NumberFormat("en-US", { style: "percent", maximumFractionDigits: 1 }).format(0.1234));',
      'console.log(new Intl.NumberFormat("en", { notation: "compact" }).format(1234567));',
      'console.log(new Intl.NumberFormat("en", { style: "unit", unit: "kilometer-per-hour" }).format(50));',
      'console.log(new Intl.NumberFormat("en-IN").format(12345678901234567890n));',
      'console.log(new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 }).format("1234.5678"));',
      'console.log(JSON.stringify(new Intl.NumberFormat("en-US").formatToParts(-1234.5)));',
      'console.log(new Intl.NumberFormat("en-US").formatRange(3, 5), [1, 2].map(new Intl.NumberFormat("fr-FR", { minimumFractionDigits: 1 }).format).join(" | "));',
    ].join('\n')), [
      '1.234,50\u00a0€',
      '-$0.50',
      '12.3%',
      '1.2M',
      '50 km/h',
      '1,23,45,67,89,01,23,45,67,890',
      '1,234.57',
      '[{"type":"minusSign","value":"-"},{"type":"integer","value":"1"},{"type":"group","value":","},{"type":"integer","value":"234"},{"type":"decimal","value":"."},{"type":"fraction","value":"5"}]',
      '3–5 1,0 | 2,0',
      '',
    ].join('\n'));
  });

  g.test('DateTimeFormat and the Date toLocale* methods', async (ctx) => {
    assert.equal(await ctx.output([
      'const d = new Date(Date.UTC(2024, 0, 15, 13, 5, 9));',
      'console.log(new Intl.DateTimeFormat("en-US", { dateStyle: "full", timeStyle: "short", timeZone: "UTC" }).format(d));',
      'console.log(new Intl.DateTimeFormat("de-DE", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" }).format(d));',
      'console.log(d.toLocaleString("en-US", { timeZone: "UTC" }));',
      'console.log(d.toLocaleDateString("en-GB", { timeZone: "UTC" }), d.toLocaleTimeString("en-GB", { timeZone: "UTC" }));',
      'console.log(d.toLocaleDateString("ja-JP", { timeZone: "Asia/Tokyo", era: "long" }));',
      'console.log(new Intl.DateTimeFormat("en", { timeZone: "America/New_York", timeZoneName: "short", hour: "numeric" }).format(d));',
      'console.log(new Intl.DateTimeFormat("en", { timeZone: "UTC" }).formatRange(d, new Date(Date.UTC(2024, 0, 20))));',
      'console.log(new Intl.DateTimeFormat("en", { timeZone: "UTC" }).resolvedOptions().timeZone, new Date(NaN).toLocaleString());',
    ].join('\n')), [
      'Monday, January 15, 2024 at 1:05 PM',
      '15. Januar 2024',
      '1/15/2024, 1:05:09 PM',
      '15/01/2024 13:05:09',
      '西暦2024/1/15',
      '8 AM EST',
      '1/15/2024\u2009–\u20091/20/2024',
      'UTC Invalid Date',
      '',
    ].join('\n'));
  });

  g.test('Collator and localeCompare sort by locale', async (ctx) => {
    assert.equal(await ctx.output([
      'const words = ["zebra", "Äpfel", "apple", "Zoo", "ähnlich"];',
      'console.log([...words].sort(new Intl.Collator("de").compare).join(","));',
      'console.log([...words].sort((a, b) => a.localeCompare(b, "sv")).join(","));',
      'console.log(["item10", "item2", "item1"].sort(new Intl.Collator("en", { numeric: true }).compare).join(","));',
      'console.log("a".localeCompare("B"), "a".localeCompare("á", "en", { sensitivity: "base" }));',
    ].join('\n')), [
      'ähnlich,Äpfel,apple,zebra,Zoo',
      'apple,zebra,Zoo,ähnlich,Äpfel',
      'item1,item2,item10',
      '-1 0',
      '',
    ].join('\n'));
  });

  g.test('PluralRules, RelativeTimeFormat, ListFormat, toLocaleString of numbers, BigInts and arrays', async (ctx) => {
    assert.equal(await ctx.output([
      'const ord = new Intl.PluralRules("en-US", { type: "ordinal" });',
      'console.log([1, 2, 3, 4, 11].map((n) => ord.select(n)).join(","), new Intl.PluralRules("ar").select(0));',
      'console.log(new Intl.RelativeTimeFormat("en", { numeric: "auto" }).format(-1, "day"), new Intl.RelativeTimeFormat("es").format(3, "hours"));',
      'console.log(new Intl.ListFormat("en", { type: "disjunction" }).format(["a", "b", "c"]), new Intl.ListFormat("de").format(["x", "y"]));',
      'console.log((1234567.891).toLocaleString(), (1234567.891).toLocaleString("de-CH"), 123456789n.toLocaleString("en-US"));',
      'console.log([1234.5, new Date(0)].toLocaleString("en-US", { timeZone: "UTC" }));',
      'console.log("istanbul".toLocaleUpperCase("tr"), "İ".toLocaleLowerCase("en-US").length);',
    ].join('\n')), [
      'one,two,few,other,other zero',
      'yesterday dentro de 3 horas',
      'a, b, or c x und y',
      "1,234,567.891 1'234'567.891 123,456,789",
      '1,234.5,1/1/1970, 12:00:00 AM',
      'İSTANBUL 2',
      '',
    ].join('\n'));
  });

  g.test('constructors validate like V8: errors, resolvedOptions, supportedLocalesOf, getCanonicalLocales', async (ctx) => {
    assert.equal(await ctx.output([
      'try { new Intl.NumberFormat("en", { style: "currency" }) } catch (e) { console.log((e as Error).name, e instanceof TypeError) }',
      'try { new Intl.NumberFormat("not a locale!") } catch (e) { console.log((e as Error).name, e instanceof RangeError) }',
      'try { (Intl.PluralRules as any)("en") } catch (e) { console.log((e as Error).name) }',
      'const nf = Intl.NumberFormat("en-GB", { style: "percent" });',
      'console.log(nf instanceof Intl.NumberFormat, Object.prototype.toString.call(nf), nf.resolvedOptions().locale, nf.resolvedOptions().style);',
      'console.log(Intl.NumberFormat.supportedLocalesOf(["de-DE", "xx-unknown"]).join(), Intl.getCanonicalLocales("EN-us").join());',
    ].join('\n')), [
      'TypeError true',
      'RangeError true',
      'TypeError',
      'true [object Intl.NumberFormat] en-GB percent',
      'de-DE en-US',
      '',
    ].join('\n'));
  });

  g.test('object-valued options convert as the option would (valueOf first); supportedValuesOf; cached specs stay distinct', async (ctx) => {
    assert.equal(await ctx.output([
      'console.log(new Intl.NumberFormat("en", { maximumFractionDigits: { valueOf() { return 1 } } as any }).format(1.234));',
      'console.log(new Intl.NumberFormat("en", { style: "currency", currency: { toString() { return "EUR" } } as any }).format(2));',
      'console.log(Intl.supportedValuesOf("currency").includes("EUR"), Intl.supportedValuesOf("unit").includes("meter"));',
      'try { Intl.supportedValuesOf("nope" as any) } catch (e) { console.log((e as Error).name) }',
      'console.log((1234.5).toLocaleString(), (1234.5).toLocaleString("de-DE"), (1234.5).toLocaleString(), "a".localeCompare("B"), "a".localeCompare("B", "en"));',
    ].join('\n')), [
      '1.2',
      '€2.00',
      'true true',
      'RangeError',
      '1,234.5 1.234,5 1,234.5 -1 -1',
      '',
    ].join('\n'));
  });
});
