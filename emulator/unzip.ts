import { inflateRawSync } from "node:zlib";

// Reading a function's ZIP archive: its central directory (the names, where each entry is and how
// it is packed) and each file's bytes, stored or deflated, which is what the official CLI and the
// provider write. Written here over node:zlib rather than taken from a package: the emulator also
// ships as one executable, and this is the whole of what it needs of the format.

/** One file of an archive: its path (`/`-separated, as stored) and a way to read its bytes. */
export interface ZipEntry {
  name: string;
  bytes(): Buffer;
}

/** An archive that cannot be read, with the reason. */
export class ZipError extends Error {}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
/** The end record's fixed part; a comment of up to 64 KiB may follow it. */
const END_SIZE = 22;

/** Where the end-of-central-directory record starts: searched from the end, past any comment. */
function endRecord(zip: Buffer): number {
  const lowest = Math.max(0, zip.length - END_SIZE - 0xffff);
  for (let at = zip.length - END_SIZE; at >= lowest; at--)
    if (zip.readUInt32LE(at) === END_OF_DIRECTORY) return at;
  throw new ZipError("it has no ZIP central directory");
}

/** The archive's files (directories left out), in the directory's order; ZipError when it cannot be read. */
export function zipEntries(zip: Buffer): ZipEntry[] {
  if (zip.length < END_SIZE) throw new ZipError("it is too short to be a ZIP archive");
  const end = endRecord(zip);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  if (count === 0xffff || at === 0xffffffff) throw new ZipError("ZIP64 archives are not read");
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== DIRECTORY_ENTRY)
      throw new ZipError("its central directory is cut short");
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const packed = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString(flags & 0x0800 ? "utf8" : "latin1", at + 46, at + 46 + nameLength);
    at += 46 + nameLength + skip;
    if (name.endsWith("/")) continue;
    if (flags & 0x0001) throw new ZipError(`${name} is encrypted`);
    if (method !== 0 && method !== 8)
      throw new ZipError(`${name} is packed with method ${method}, not deflate`);
    entries.push({
      name,
      bytes() {
        if (local + 30 > zip.length || zip.readUInt32LE(local) !== LOCAL_HEADER)
          throw new ZipError(`${name}'s local header is missing`);
        const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
        const data = zip.subarray(start, start + packed);
        if (data.length !== packed) throw new ZipError(`${name} is cut short`);
        const out = method === 0 ? Buffer.from(data) : inflateRawSync(data);
        if (out.length !== size) throw new ZipError(`${name} unpacks to ${out.length} bytes, not ${size}`);
        return out;
      },
    });
  }
  return entries;
}
