// The ISO-2022-JP decoder (Encoding Standard § 12.2.1). Its state — the mode the last escape
// sequence chose, and whether an escape sequence was the last thing read — lives here, so it lasts
// across streamed chunks and errors land where the standard puts them (ICU, on the host, loses
// the mode between chunks and drops the byte after a broken escape sequence). The two-byte
// JIS X 0208 characters are looked up on the host through EUC-JP, whose index is the same
// (pointer = (lead − 0x21) × 94 + trail − 0x21 in both), one op per decode() call.
import { op } from './host.js';

const ASCII = 0, ROMAN = 1, KATAKANA = 2, LEAD = 3, TRAIL = 4, ESCAPE_START = 5, ESCAPE = 6;
const EOF = -1;
/** Stands in the output for a JIS X 0208 pair until the host has looked it up. */
const PAIR = -1;

export class Iso2022JpDecoder {
  /** `invalid` makes the TypeError a fatal decoder throws. */
  constructor(fatal, invalid) {
    this.fatal = fatal;
    this.invalid = invalid;
    this.state = ASCII;
    this.outputState = ASCII;
    this.lead = 0;
    this.outputFlag = false;
  }

  decode(bytes, sink, flush) {
    const out = [];
    const pairs = [];
    const error = () => {
      if (this.fatal) throw this.invalid();
      out.push(0xfffd);
    };
    const back = []; // bytes the standard prepends to the stream, last one first
    let i = 0;
    for (;;) {
      let b;
      if (back.length > 0) b = back.pop();
      else if (i < bytes.length) b = bytes[i++];
      else if (flush) b = EOF;
      else break;
      if (b === EOF && (this.state === ASCII || this.state === ROMAN || this.state === KATAKANA || this.state === LEAD)) break;
      switch (this.state) {
        case ASCII:
        case ROMAN:
          if (b === 0x1b) { this.state = ESCAPE_START; break; }
          this.outputFlag = false;
          if (b > 0x7f || b === 0x0e || b === 0x0f) error();
          else if (this.state === ROMAN && b === 0x5c) out.push(0xa5);
          else if (this.state === ROMAN && b === 0x7e) out.push(0x203e);
          else out.push(b);
          break;
        case KATAKANA:
          if (b === 0x1b) { this.state = ESCAPE_START; break; }
          this.outputFlag = false;
          if (b >= 0x21 && b <= 0x5f) out.push(0xff61 - 0x21 + b);
          else error();
          break;
        case LEAD:
          if (b === 0x1b) { this.state = ESCAPE_START; break; }
          this.outputFlag = false;
          if (b >= 0x21 && b <= 0x7e) { this.lead = b; this.state = TRAIL; } else error();
          break;
        case TRAIL:
          if (b === 0x1b) { this.state = ESCAPE_START; error(); break; }
          this.state = LEAD;
          if (b >= 0x21 && b <= 0x7e) { pairs.push(this.lead | 0x80, b | 0x80); out.push(PAIR); } else error();
          break;
        case ESCAPE_START:
          if (b === 0x24 || b === 0x28) { this.lead = b; this.state = ESCAPE; break; }
          if (b !== EOF) back.push(b);
          this.outputFlag = false;
          this.state = this.outputState;
          error();
          break;
        default: { // ESCAPE
          const lead = this.lead;
          this.lead = 0;
          let next = -1;
          if (lead === 0x28 && b === 0x42) next = ASCII;
          else if (lead === 0x28 && b === 0x4a) next = ROMAN;
          else if (lead === 0x28 && b === 0x49) next = KATAKANA;
          else if (lead === 0x24 && (b === 0x40 || b === 0x42)) next = LEAD;
          if (next >= 0) {
            this.state = this.outputState = next;
            const output = this.outputFlag;
            this.outputFlag = true;
            if (output) error();
            break;
          }
          if (b !== EOF) back.push(b);
          back.push(lead);
          this.outputFlag = false;
          this.state = this.outputState;
          error();
        }
      }
    }
    const looked = pairs.length > 0 ? op('encoding.decode', { encoding: 'euc-jp', fatal: false, stream: false }, new Uint8Array(pairs)).text : '';
    let k = 0;
    for (const unit of out) {
      if (unit !== PAIR) { sink.unit(unit); continue; }
      const c = looked.charCodeAt(k++);
      if (c === 0xfffd && this.fatal) throw this.invalid();
      sink.unit(c);
    }
  }
}
