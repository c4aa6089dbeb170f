import { createPrivateKey, generateKeyPairSync, randomBytes, X509Certificate } from "node:crypto";
import { chmodSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSecureContext, type SecureContext } from "node:tls";

// The endpoints' certificates: a certificate authority of this emulator's own, and a server
// certificate it signs for every name a client may reach an endpoint by (docs/api-rules.md §14).
// Node makes the keys and reads certificates but writes none, so `jsrsasign` (one package, no
// dependencies) writes them; it is loaded only when a data plane starts.

/** The CA a client trusts to verify the endpoints, and the server side of their TLS. */
export interface EndpointCertificates {
  /** The CA's certificate, PEM. */
  caCertificate: string;
  /** A file holding `caCertificate`, for `sslrootcert` / `PGSSLROOTCERT`. */
  caPath: string;
  /** The endpoints' certificate and key, for their TLS sockets. */
  secureContext: SecureContext;
  /** Removes the CA's temporary folder (a CA kept beside a state file stays). */
  dispose(): void;
}

/** What the certificates are made for. */
export interface CertificateOptions {
  /** Keep the CA in `<stateFile>.ca.pem` and `<stateFile>.ca.key`, reused while valid; else a fresh one per run. */
  stateFile?: string | undefined;
  /** Every name and address the server certificate is for (`*.region.host` wildcards included). */
  hosts: readonly string[];
}

interface KeyPair {
  key: string;
  publicKey: string;
}

const DAY_MS = 86_400_000;
/** Ten years: an app configured with the CA keeps working across restarts. */
const CA_LIFETIME_MS = 3650 * DAY_MS;
/** 397 days, the longest that every TLS client accepts for a server certificate. */
const SERVER_LIFETIME_MS = 397 * DAY_MS;
/** A client whose clock is a little behind still accepts a certificate made just now. */
const BACKDATE_MS = 3_600_000;

function newKeyPair(): KeyPair {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  return {
    key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    publicKey: publicKey.export({ type: "spki", format: "pem" }).toString(),
  };
}

/** X.509 time: UTCTime up to 2049, GeneralizedTime after (RFC 5280 4.1.2.5). */
function x509Time(ms: number): string {
  const iso = new Date(ms).toISOString();
  const digits = `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
  return Number(iso.slice(0, 4)) < 2050 ? digits.slice(2) : digits;
}

/** A random positive 128-bit serial number. */
function serialHex(): string {
  const bytes = randomBytes(16);
  bytes[0] = ((bytes[0] as number) & 0x7f) | 0x01;
  return bytes.toString("hex");
}

async function jsrsasign(): Promise<typeof import("jsrsasign")> {
  return import("jsrsasign");
}

async function makeCa(nowMs: number): Promise<{ cert: string; key: string }> {
  const { KJUR } = await jsrsasign();
  const pair = newKeyPair();
  // A name of its own per CA, so two emulators' CAs are told apart in a trust store.
  const name = { str: `/O=clouddb-emulator/CN=clouddb-emulator CA ${randomBytes(4).toString("hex")}` };
  const cert = new KJUR.asn1.x509.Certificate({
    version: 3,
    serial: { hex: serialHex() },
    issuer: name,
    subject: name,
    notbefore: x509Time(nowMs - BACKDATE_MS),
    notafter: x509Time(nowMs + CA_LIFETIME_MS),
    sbjpubkey: pair.publicKey,
    ext: [
      { extname: "basicConstraints", critical: true, cA: true, pathLen: 0 },
      { extname: "keyUsage", critical: true, names: ["keyCertSign", "cRLSign"] },
      { extname: "subjectKeyIdentifier", kid: pair.publicKey },
    ],
    sigalg: "SHA256withECDSA",
    cakey: pair.key,
  }).getPEM();
  return { cert, key: pair.key };
}

async function makeServerCertificate(
  ca: { cert: string; key: string },
  hosts: readonly string[],
  nowMs: number,
): Promise<KeyPair & { cert: string }> {
  const { KJUR } = await jsrsasign();
  const pair = newKeyPair();
  const issuer = new X509Certificate(ca.cert).subject.split("\n").map((part) => `/${part}`);
  const cert = new KJUR.asn1.x509.Certificate({
    version: 3,
    serial: { hex: serialHex() },
    issuer: { str: issuer.join("") },
    subject: { str: "/O=clouddb-emulator/CN=clouddb-emulator endpoints" },
    notbefore: x509Time(nowMs - BACKDATE_MS),
    // Never beyond the CA's own end: past it no client accepts the chain anyway.
    notafter: x509Time(
      Math.min(nowMs + SERVER_LIFETIME_MS, Date.parse(new X509Certificate(ca.cert).validTo)),
    ),
    sbjpubkey: pair.publicKey,
    ext: [
      { extname: "basicConstraints", critical: true, cA: false },
      { extname: "keyUsage", critical: true, names: ["digitalSignature"] },
      { extname: "extKeyUsage", array: [{ name: "serverAuth" }] },
      {
        extname: "subjectAltName",
        array: hosts.map((host) => (isIP(host) === 0 ? { dns: host } : { ip: host })),
      },
      { extname: "authorityKeyIdentifier", kid: ca.cert },
    ],
    sigalg: "SHA256withECDSA",
    cakey: ca.key,
  }).getPEM();
  return { ...pair, cert };
}

/** Whether a kept CA can still sign: it parses, is a CA, matches its key, and is valid for a day more at least. */
function usableCa(cert: string, key: string, nowMs: number): boolean {
  const parsed = new X509Certificate(cert);
  return (
    parsed.ca && parsed.checkPrivateKey(createPrivateKey(key)) && Date.parse(parsed.validTo) > nowMs + DAY_MS
  );
}

/** Writes `text` to `path` atomically, with `mode`. */
function writeAtomically(path: string, text: string, mode: number): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode });
  renameSync(tmp, path);
}

/**
 * The CA kept beside a state file: read when both files are there and it can still sign, else
 * made and written. Throws when a file exists but cannot be read as a certificate or key.
 */
async function keptCa(
  stateFile: string,
  nowMs: number,
): Promise<{ cert: string; key: string; path: string }> {
  const certPath = `${stateFile}.ca.pem`;
  const keyPath = `${stateFile}.ca.key`;
  if (existsSync(certPath) && existsSync(keyPath)) {
    const cert = readFileSync(certPath, "utf8");
    const key = readFileSync(keyPath, "utf8");
    let usable: boolean;
    try {
      usable = usableCa(cert, key, nowMs);
    } catch (error) {
      throw new Error(
        `cannot load the endpoints' CA from ${certPath} and ${keyPath}: ${(error as Error).message}; ` +
          "delete both files to make a new CA (clients must then trust the new one)",
      );
    }
    if (usable) return { cert, key, path: certPath };
  }
  const made = await makeCa(nowMs);
  // The key first: a certificate on disk always has its key beside it.
  writeAtomically(keyPath, made.key, 0o600);
  writeAtomically(certPath, made.cert, 0o644);
  return { ...made, path: certPath };
}

/** The CA (kept beside the state file, or fresh in a temporary folder) and the endpoints' certificate it signs. */
export async function endpointCertificates(options: CertificateOptions): Promise<EndpointCertificates> {
  const nowMs = Date.now();
  let ca: { cert: string; key: string; path: string };
  let folder: string | undefined;
  if (options.stateFile === undefined) {
    const made = await makeCa(nowMs);
    folder = mkdtempSync(join(tmpdir(), "clouddb-ca-"));
    // Readable by every user: an app run as another user than the emulator reads the CA too.
    chmodSync(folder, 0o755);
    const path = join(folder, "ca.pem");
    writeFileSync(path, made.cert, { mode: 0o644 });
    ca = { ...made, path };
  } else {
    ca = await keptCa(options.stateFile, nowMs);
  }
  const server = await makeServerCertificate(ca, options.hosts, nowMs);
  return {
    caCertificate: ca.cert,
    caPath: ca.path,
    secureContext: createSecureContext({ key: server.key, cert: server.cert }),
    dispose() {
      if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
    },
  };
}
