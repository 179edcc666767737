// Does a JPEG end? libjpeg stops reading once it has every scan line, so a file whose scan data is
// complete but whose end-of-image marker was cut off decodes without a warning. Walking the markers
// finds the EOI: segment payloads are skipped by their length, and inside entropy-coded data a 0xFF
// byte is always followed by 0x00 (stuffing), a restart marker or 0xFF (fill), so the first other
// marker ends the scan. Data after the EOI (phones append motion-photo video there) is not read.
import { MediaProbeError, type RandomAccessReader } from './reader.ts';

const BLOCK = 64 * 1024;
const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
/** Markers without a length field: TEM, RST0–RST7, SOI, EOI. */
const standalone = (m: number) => m === 0x01 || (m >= 0xd0 && m <= 0xd7) || m === SOI || m === EOI;

export async function assertJpegComplete(reader: RandomAccessReader): Promise<void> {
  let block: Buffer = Buffer.alloc(0);
  let blockAt = 0;
  const byteAt = async (pos: number): Promise<number | undefined> => {
    if (pos < blockAt || pos >= blockAt + block.length) {
      blockAt = pos;
      block = await reader.read(pos, BLOCK);
    }
    return block[pos - blockAt];
  };
  const truncated = () => new MediaProbeError('the JPEG is truncated: it has no end-of-image marker');
  /** The position of the next 0xFF byte from `pos`, a block at a time. */
  const nextFF = async (from: number): Promise<number> => {
    for (let at = from; ; at = blockAt + block.length) {
      if ((await byteAt(at)) === undefined) throw truncated();
      const i = block.indexOf(0xff, at - blockAt);
      if (i >= 0) return blockAt + i;
    }
  };
  let pos = 2; // after SOI, which sniffing already saw
  for (;;) {
    // At a marker: 0xFF (any number of fill bytes), then its code. Stray bytes before it are skipped, as libjpeg does.
    pos = await nextFF(pos);
    let code = await byteAt(++pos);
    while (code === 0xff) code = await byteAt(++pos);
    if (code === undefined) throw truncated();
    pos++;
    if (code === EOI) return;
    if (standalone(code)) continue;
    const hi = await byteAt(pos);
    const lo = await byteAt(pos + 1);
    if (hi === undefined || lo === undefined) throw truncated();
    pos += (hi << 8) | lo;
    if (code !== SOS) continue;
    // Entropy-coded data runs to the next marker that is not stuffing or a restart.
    for (;;) {
      pos = await nextFF(pos);
      const next = await byteAt(pos + 1);
      if (next === undefined) throw truncated();
      if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) pos += 2;
      else if (next === 0xff) pos++;
      else break;
    }
  }
}
