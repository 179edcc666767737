// Is an ISO-BMFF file (MP4, M4V, MOV) complete? ffprobe and the header parser both read a file whose
// media data was cut off without complaint, since everything they read sits in the moov box.
import { boxes, findChild, payloadOf, type Box } from './isobmff.ts';
import { MediaProbeError, type RandomAccessReader } from './reader.ts';

// Media data boxes: one that runs past the end of the file lost part of the recording.
const DATA_BOXES = new Set(['moov', 'mdat', 'moof']);
/** Larger chunk-offset or sample-to-chunk tables are not read (the check is skipped for that track). */
const MAX_TABLE = 64 << 20;

/**
 * Refuses a file whose media data was cut off: a moov/mdat/moof box declaring more bytes than the file
 * has, or a track whose last chunk of samples ends past the end of the file (an mdat that runs "to the
 * end of the file" declares no size). Reads box headers and the sample tables, never the media data.
 */
export async function assertIsoBmffComplete(reader: RandomAccessReader): Promise<void> {
  for await (const box of boxes(reader, 0, reader.size)) {
    if (DATA_BOXES.has(box.type) && box.declaredEnd > reader.size) {
      throw new MediaProbeError(
        `the file is truncated: its ${box.type} box needs ${box.declaredEnd - box.payload} bytes of data but only ${reader.size - box.payload} are there`,
      );
    }
    if (box.type !== 'moov') continue;
    for await (const trak of boxes(reader, box.payload, box.end)) {
      if (trak.type !== 'trak') continue;
      const end = await lastChunkEnd(reader, trak);
      if (end !== undefined && end > reader.size) {
        throw new MediaProbeError(
          `the file is truncated: a track's media data runs to byte ${end} but the file has ${reader.size} bytes`,
        );
      }
    }
  }
}

async function childPath(reader: RandomAccessReader, from: Box, path: string[]): Promise<Box | undefined> {
  let box: Box | undefined = from;
  for (const type of path) box = box && (await findChild(reader, box, type));
  return box;
}

/** The end of the track's chunk that starts last: its offset plus the sizes of its samples. */
async function lastChunkEnd(reader: RandomAccessReader, trak: Box): Promise<number | undefined> {
  const stbl = await childPath(reader, trak, ['mdia', 'minf', 'stbl']);
  if (!stbl) return undefined;
  let stco: Box | undefined;
  let stsc: Box | undefined;
  let stsz: Box | undefined;
  for await (const b of boxes(reader, stbl.payload, stbl.end)) {
    if (b.type === 'stco' || b.type === 'co64') stco = b;
    else if (b.type === 'stsc') stsc = b;
    else if (b.type === 'stsz') stsz = b;
  }
  if (!stco || stco.end - stco.payload > MAX_TABLE) return undefined;
  const offsets = await payloadOf(reader, stco, MAX_TABLE);
  const wide = stco.type === 'co64';
  const count = Math.min(
    offsets.length >= 8 ? offsets.readUInt32BE(4) : 0,
    Math.floor((offsets.length - 8) / (wide ? 8 : 4)),
  );
  let last = -1;
  let lastOffset = -1;
  for (let i = 0; i < count; i++) {
    const at = 8 + i * (wide ? 8 : 4);
    const offset = wide ? Number(offsets.readBigUInt64BE(at)) : offsets.readUInt32BE(at);
    if (offset > lastOffset) [last, lastOffset] = [i, offset];
  }
  if (last < 0) return undefined;
  const samples =
    stsc && stsc.end - stsc.payload <= MAX_TABLE
      ? samplesOfChunk(await payloadOf(reader, stsc, MAX_TABLE), last)
      : undefined;
  if (!samples || !stsz) return lastOffset + 1; // at least its first byte must be there
  const head = await payloadOf(reader, stsz, 12);
  if (head.length < 12) return lastOffset + 1;
  const uniform = head.readUInt32BE(4);
  if (uniform) return lastOffset + uniform * samples.count;
  const sizes = await reader.read(stsz.payload + 12 + 4 * samples.first, 4 * samples.count);
  let end = lastOffset;
  for (let i = 0; i + 4 <= sizes.length; i += 4) end += sizes.readUInt32BE(i);
  return end;
}

/** Which samples chunk `chunk` (0-based) holds, from the sample-to-chunk table. */
function samplesOfChunk(stsc: Buffer, chunk: number): { first: number; count: number } | undefined {
  const entries = Math.min(stsc.length >= 8 ? stsc.readUInt32BE(4) : 0, Math.floor((stsc.length - 8) / 12));
  let first = 0;
  for (let i = 0; i < entries; i++) {
    const at = 8 + i * 12;
    const firstChunk = stsc.readUInt32BE(at) - 1;
    const perChunk = stsc.readUInt32BE(at + 4);
    const nextFirst = i + 1 < entries ? stsc.readUInt32BE(at + 12) - 1 : Infinity;
    if (nextFirst <= firstChunk) return undefined; // a malformed table: no verdict
    if (chunk < nextFirst)
      return chunk < firstChunk ? undefined : { first: first + (chunk - firstChunk) * perChunk, count: perChunk };
    first += (nextFirst - firstChunk) * perChunk;
  }
  return undefined;
}
