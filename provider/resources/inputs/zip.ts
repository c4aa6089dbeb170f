/**
 * A function's code as a ZIP archive: a folder zipped the same way every time (entries sorted by
 * path, fixed timestamps and attributes, deflated), so the same files give the same bytes and the
 * same `sourceHash`, and a preview tells a change of code from none without uploading anything.
 * Written here rather than with a ZIP library: the provider's runtime dependencies stay `got` and
 * `zod`, and a deterministic archive needs only entries in order with fixed times, which
 * `node:zlib`'s `deflateRawSync` and `crc32` cover.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { crc32, deflateRawSync } from "node:zlib";

/** 1980-01-01 00:00, the earliest time a ZIP entry can hold: no file's mtime reaches the archive. */
const DOS_TIME = 0;
const DOS_DATE = (0 << 9) | (1 << 5) | 1;

/** Every file under `root`, as archive paths (`/`-separated), sorted. */
function filesOf(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) out.push(relative(root, path).split(sep).join("/"));
    }
  };
  walk(root);
  return out.sort();
}

/**
 * The fields a local header and its central directory record share, from `at`: UTF-8 names,
 * deflate, the fixed time, the checksum, the sizes and the name's length.
 */
function writeEntry(
  header: Buffer,
  at: number,
  crc: number,
  packed: number,
  size: number,
  nameLength: number,
) {
  header.writeUInt16LE(0x0800, at);
  header.writeUInt16LE(8, at + 2);
  header.writeUInt16LE(DOS_TIME, at + 4);
  header.writeUInt16LE(DOS_DATE, at + 6);
  header.writeUInt32LE(crc, at + 8);
  header.writeUInt32LE(packed, at + 12);
  header.writeUInt32LE(size, at + 16);
  header.writeUInt16LE(nameLength, at + 20);
}

/** The folder `root` zipped deterministically. */
export function zipFolder(root: string): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const path of filesOf(root)) {
    const data = readFileSync(join(root, ...path.split("/")));
    const packed = deflateRawSync(data, { level: 9 });
    const name = Buffer.from(path, "utf8");
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    writeEntry(local, 6, crc, packed.length, data.length, name.length);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // made by
    central.writeUInt16LE(20, 6); // version needed
    writeEntry(central, 8, crc, packed.length, data.length, name.length);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length / 2, 8);
  end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The archive a function deploys: `source` zipped, or the bytes of `archive`. */
export function archiveOf(code: { source?: string | undefined; archive?: string | undefined }): Buffer {
  const [what, path] = code.source !== undefined ? ["source folder", code.source] : ["archive", code.archive];
  if (path === undefined) throw new Error("a function needs source (a folder) or archive (a .zip)");
  try {
    return code.source !== undefined ? zipFolder(path) : readFileSync(path);
  } catch (err) {
    throw new Error(
      `the function's ${what} ${path} cannot be read (${(err as Error).message}): give a path that exists ` +
        "(an absolute one does not depend on the directory the provider runs in), then run `pulumi up` again",
    );
  }
}

/** sha256 of an archive's bytes, hex. */
export function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}
