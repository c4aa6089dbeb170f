/**
 * Reading a function's ZIP archive at preview: its central directory (each file's name, where it is
 * and how it is packed) and a file's bytes, stored or deflated. Written over node:zlib rather than
 * taken from a package: the provider's only runtime dependencies are got and zod, and this is the
 * whole of what a preview needs of the format.
 */
import { inflateRawSync } from "node:zlib";

/** An archive that cannot be read, with the reason. */
export class ZipReadError extends Error {}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
/** The end record's fixed part; a comment of up to 64 KiB may follow it. */
const END_SIZE = 22;

/** One file of an archive: its `/`-separated path and a way to read its bytes. */
export interface ZipFile {
  name: string;
  bytes(): Buffer;
}

/** Whether the bytes start like a ZIP file (a local header, or the end record of an empty archive). */
export function looksLikeZip(zip: Buffer): boolean {
  return (
    zip.length >= 4 && (zip.readUInt32LE(0) === LOCAL_HEADER || zip.readUInt32LE(0) === END_OF_DIRECTORY)
  );
}

/** The archive's files (folders left out); throws `ZipReadError` when it cannot be read. */
export function zipFiles(zip: Buffer): ZipFile[] {
  if (zip.length < END_SIZE) throw new ZipReadError("it is too short to be a ZIP archive");
  let end = -1;
  for (let at = zip.length - END_SIZE; at >= Math.max(0, zip.length - END_SIZE - 0xffff); at--)
    if (zip.readUInt32LE(at) === END_OF_DIRECTORY) {
      end = at;
      break;
    }
  if (end < 0) throw new ZipReadError("it has no ZIP central directory");
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const files: ZipFile[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== DIRECTORY_ENTRY)
      throw new ZipReadError("its central directory is cut short");
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const packed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString(flags & 0x0800 ? "utf8" : "latin1", at + 46, at + 46 + nameLength);
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    if (name.endsWith("/")) continue;
    files.push({
      name,
      bytes() {
        if (flags & 0x0001) throw new ZipReadError(`${name} is encrypted`);
        if (method !== 0 && method !== 8) throw new ZipReadError(`${name} is packed with method ${method}`);
        if (local + 30 > zip.length || zip.readUInt32LE(local) !== LOCAL_HEADER)
          throw new ZipReadError(`${name}'s local header is missing`);
        const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
        const data = zip.subarray(start, start + packed);
        if (data.length !== packed) throw new ZipReadError(`${name} is cut short`);
        return method === 0 ? Buffer.from(data) : inflateRawSync(data);
      },
    });
  }
  return files;
}
