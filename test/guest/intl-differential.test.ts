// Differential Intl corpus (issue 7): NumberFormat (10 locales × 23 option sets × 10 values, plus
// formatToParts and resolvedOptions), DateTimeFormat (8 locales × 12 option sets × 3 dates, parts,
// ranges, resolvedOptions), toLocaleString and the other Intl constructors, on both engines,
// each compared with what this test's own Node (the worker's ICU) prints. (Which Intl
// constructors QuickJS has at all is test/guest/intl.test.ts's business.)
import assert from 'node:assert/strict';
import { guestSuite } from '../helpers/both-engines.ts';

/* eslint-disable */
const nf = `
const locales = ['en-US', 'de-DE', 'fr-FR', 'ja-JP', 'ar-EG', 'hi-IN', 'zh-CN', 'es', 'ru', 'pt-BR'];
const opts = [{}, {style:'currency', currency:'USD'}, {style:'currency', currency:'EUR', currencyDisplay:'name'}, {style:'currency', currency:'JPY', currencyDisplay:'narrowSymbol'}, {style:'currency', currency:'USD', currencySign:'accounting'},
 {style:'percent'}, {style:'percent', signDisplay:'always'}, {style:'unit', unit:'kilobyte', unitDisplay:'long'}, {style:'unit', unit:'liter-per-kilometer'}, {notation:'compact', compactDisplay:'long'}, {notation:'scientific'}, {notation:'engineering', maximumSignificantDigits: 3},
 {minimumFractionDigits: 3}, {maximumFractionDigits: 0, roundingMode: 'halfEven'}, {useGrouping: false}, {useGrouping: 'min2'}, {signDisplay: 'exceptZero'}, {signDisplay: 'negative'}, {minimumIntegerDigits: 5}, {roundingIncrement: 5, maximumFractionDigits: 2, minimumFractionDigits: 2}, {trailingZeroDisplay: 'stripIfInteger', minimumFractionDigits: 2}, {numberingSystem: 'arab'}, {roundingPriority: 'lessPrecision', maximumSignificantDigits: 2, maximumFractionDigits: 3}];
const nums = [0, -0, 1234.5678, -0.005, 1e21, 12345678901234567890n, NaN, -Infinity, '1.23456789e3', 0.1 + 0.2];
const out = [];
for (const l of locales) for (const o of opts) { let f; try { f = new Intl.NumberFormat(l, o) } catch (e) { out.push('ctor ' + e.name); continue } for (const n of nums) { try { out.push(f.format(n)) } catch (e) { out.push('E ' + e.name) } } try { out.push(JSON.stringify(f.formatToParts(-1234.5))) } catch (e) { out.push('E') } try { out.push(JSON.stringify(f.resolvedOptions())) } catch (e) { out.push('E ' + e.name) } }
return out;`;
const dtf = `
const locales = ['en-US', 'en-GB', 'de-DE', 'ja-JP', 'ar-SA', 'he-IL-u-ca-hebrew', 'zh-TW', 'th-TH'];
const opts = [{}, {dateStyle:'full'}, {dateStyle:'medium', timeStyle:'long'}, {timeStyle:'full', timeZone:'America/New_York'}, {weekday:'long', era:'short', year:'numeric', month:'narrow', day:'2-digit'}, {hour:'numeric', minute:'2-digit', hour12: false}, {hour:'numeric', hourCycle:'h11', dayPeriod:'long'}, {timeZoneName:'shortOffset', timeZone:'Asia/Kolkata'}, {timeZoneName:'longGeneric', timeZone:'Europe/Paris'}, {fractionalSecondDigits: 3, second:'numeric'}, {month:'long', calendar: 'islamic'}, {year:'2-digit', month:'2-digit', timeZone:'Pacific/Chatham'}];
const d = [new Date(Date.UTC(2024, 1, 29, 23, 59, 59, 123)), new Date(0), new Date(-1e12)];
const out = [];
for (const l of locales) for (const o of opts) { const f = new Intl.DateTimeFormat(l, {timeZone: 'UTC', ...o}); for (const x of d) out.push(f.format(x)); out.push(JSON.stringify(f.formatToParts(d[0]))); out.push(f.formatRange(d[1], d[0])); out.push(JSON.stringify(f.resolvedOptions())); }
out.push(new Date(0).toLocaleString('en-US', {timeZone: 'Asia/Tokyo'}), new Date(0).toLocaleDateString('fr'), (1234.5).toLocaleString('de'), [1, 2.5, new Date(0)].toLocaleString('en', {timeZone: 'UTC'}));
return out;`;
const misc = `
const out = [];
out.push(new Intl.PluralRules('ar').select(3), new Intl.PluralRules('en', {type: 'ordinal'}).select(22), new Intl.RelativeTimeFormat('es', {numeric: 'auto'}).format(-1, 'day'), new Intl.ListFormat('de', {type: 'disjunction'}).format(['a','b','c']), ['ä','a','z'].sort(new Intl.Collator('sv').compare).join(), ['ä','a','z'].sort(new Intl.Collator('de').compare).join(), 'İ'.toLocaleLowerCase('tr'), 'i'.toLocaleUpperCase('tr'), 'a'.localeCompare('B', 'en', {sensitivity: 'base'}), Intl.getCanonicalLocales(['EN-us', 'zh-hant-tw']).join());
return out;`;


const CORPORA: Record<string, string> = { nf, dtf, misc };

function host(body: string): string {
  return `${JSON.stringify(new Function(body)())}\n`;
}

guestSuite('Intl matches the host Node', (g) => {
  for (const [name, body] of Object.entries(CORPORA)) {
    g.test(`corpus ${name}`, async (ctx) => {
      assert.equal(await ctx.output(`console.log(JSON.stringify((() => {${body}})()))`, { timeoutMs: 60000, heapMemoryMaxMb: 64 }), host(body));
    });
  }
});
