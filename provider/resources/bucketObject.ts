import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { z } from "zod";
import type { BucketObject as ApiObject, CloudDbClient } from "../client";
import { NotFoundError } from "../client/errors";
import { ResourceError } from "./errors";
import { adoptInput, ProjectOfBranchInput, requiredId } from "./inputs/common";
import { bucketFind } from "./inputs/onBranch";
import { sha256 } from "./inputs/zip";
import { declaredInputs, isUnknown } from "./lifecycle/check";
import { defineResource, type Same } from "./lifecycle/define";
import { providerMethods } from "./lifecycle/methods";
import { BUCKET_OBJECT, type BucketObjectInputs, type BucketObjectOutputs } from "./public/bucketObject";

export type { BucketObjectInputs, BucketObjectOutputs } from "./public/bucketObject";

// ---------------------------------------------------------------- inputs

/** S3's limit on a key, in UTF-8 bytes; the API states none of its own. */
const MAX_KEY_BYTES = 1024;

/** Inputs as the provider sees them. */
export const BucketObjectInputsSchema = z
  .object({
    projectId: ProjectOfBranchInput,
    branchId: requiredId("branchId", "the branch the bucket is on (br-...)"),
    bucketName: z
      .string({ error: "bucketName must be a string: the name of a bucket on the branch" })
      .min(
        1,
        "bucketName must not be empty: give the name of a bucket on the branch (a Bucket's name output)",
      ),
    key: z
      .string({ error: "key must be a string: the object's key in the bucket" })
      .min(1, "key must not be empty: give the object's key in the bucket, such as docs/readme.txt")
      .refine((key) => Buffer.byteLength(key) <= MAX_KEY_BYTES, {
        error: `key is at most ${MAX_KEY_BYTES} bytes (UTF-8)`,
      })
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the rule is about control characters
      .refine((key) => !/[\u0000-\u001f\u007f]/.test(key) && key !== "." && key !== "..", {
        error:
          'key must not hold control characters nor be "." or "..": the API takes it as one segment of a path',
      }),
    source: z.string({ error: "source must be a file path" }).min(1, "source must not be empty").optional(),
    content: z.string({ error: "content must be a string: the object's text" }).optional(),
    contentType: z
      .string({ error: "contentType must be a string such as text/plain" })
      .min(1, "contentType must not be empty; omit it to send none")
      .optional(),
    adoptExisting: adoptInput("bucket object (its key)"),
  })
  .superRefine((inputs, ctx) => {
    if ((inputs.source === undefined) === (inputs.content === undefined))
      ctx.addIssue({
        code: "custom",
        path: ["source"],
        message: `give exactly one of source (a file path) or content (the object's text); ${inputs.source === undefined ? "neither was" : "both were"} given`,
      });
  });

// The schema validates exactly the public inputs.
true satisfies Same<z.infer<typeof BucketObjectInputsSchema>, BucketObjectInputs>;

/** The inputs with the hash of their bytes, which `check` adds. */
type Hashed = BucketObjectInputs & { sha256?: string };

/** The bytes the inputs name: `content` as UTF-8, or the file `source`, read now. */
function bytesOf(inputs: BucketObjectInputs): Buffer {
  if (inputs.source === undefined) return Buffer.from(inputs.content ?? "", "utf8");
  const problem = sourceProblem(inputs.source);
  if (problem !== undefined) throw new ResourceError("Missing", problem);
  return readFileSync(inputs.source);
}

/** What is wrong with the file `source` names, said with the path it resolved to; undefined when it is a file. */
function sourceProblem(source: string): string | undefined {
  const path = resolve(source);
  const where = path === source ? JSON.stringify(source) : `${JSON.stringify(source)} (${path})`;
  try {
    if (statSync(path).isFile()) return undefined;
    return `source ${where} is not a file: give the path of the file to upload`;
  } catch {
    return `source ${where} does not exist: give the path of the file to upload, relative to the program's folder`;
  }
}

/** Bytes are the same when their hash is the state's: the path or form (a file, text) alone changes nothing. */
function sameBytes(
  _news: unknown,
  _olds: unknown,
  all: { news: BucketObjectInputs; olds: BucketObjectOutputs },
) {
  const hash = (all.news as Hashed).sha256;
  return hash !== undefined && hash === all.olds.sha256;
}

/** A bytes input's change, as the preview names it: the input, and `sha256` (never the bytes themselves). */
function bytesDetails(field: "source" | "content") {
  return (
    olds: BucketObjectOutputs,
    news: BucketObjectInputs,
  ): Record<string, "add" | "update" | "delete"> => {
    const changed: Record<string, "add" | "update" | "delete"> = {};
    if (news[field] !== olds[field])
      changed[field] = olds[field] === undefined ? "add" : news[field] === undefined ? "delete" : "update";
    if ((news as Hashed).sha256 !== olds.sha256) changed["sha256"] = "update";
    return changed;
  };
}

/** A key in the id: `%` and `/` escaped, so the id keeps its four parts and reads back the same. */
function escapedKey(key: string): string {
  return key.replaceAll("%", "%25").replaceAll("/", "%2F");
}

/** The key an import id carries (`%2F` for a `/`); refused when its escapes are not a key's. */
function unescapedKey(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new ResourceError(
      "NotImportable",
      `the key ${JSON.stringify(part)} of the import id is not escaped: write a "/" of the key as %2F and a "%" as %25`,
    );
  }
}

// ---------------------------------------------------------------- API calls

/**
 * An object of a bucket (docs/api-rules.md §26). The API uploads through a presigned URL, and an
 * upload to a key replaces the object there, so new bytes or a new content type upload again in
 * place; a new key, bucket or branch replaces the resource. The API lists an object with its size
 * and entity tag, not its content type or a sha256: the state keeps the sha256 of the bytes this
 * resource uploaded, and a refresh that finds another entity tag reads the bytes to hash them again.
 */
export const bucketObjectDefinition = defineResource<BucketObjectInputs, BucketObjectOutputs>(BUCKET_OBJECT, {
  onBranch: ({ projectId, branchId }) => ({ projectId, branchId }),
  inputs: BucketObjectInputsSchema,
  id: (outs) => `${outs.projectId}/${outs.branchId}/${outs.bucketName}/${escapedKey(outs.key)}`,
  same: { source: sameBytes, content: sameBytes },
  details: { source: bytesDetails("source"), content: bytesDetails("content") },
  /** The bucket, which the API's presign refuses to sign for when the branch lacks it. */
  finds: (inputs, olds) => [
    inputs.bucketName === olds.bucketName && inputs.branchId === olds.branchId
      ? undefined
      : bucketFind(inputs, "bucketName", inputs.bucketName),
  ],
  /**
   * The file `source` names must be a file: its path is said when it is not. The bytes' sha256 joins
   * the inputs, so a preview shows new bytes as a change of it. A path not known yet is left to the update.
   */
  inspect(inputs) {
    if (isUnknown(inputs.source) || isUnknown(inputs.content)) return { failures: [] };
    if (inputs.source !== undefined) {
      const problem = sourceProblem(inputs.source);
      if (problem !== undefined) return { failures: [{ property: "source", reason: problem }] };
    }
    return { failures: [], derived: { sha256: sha256(bytesOf(inputs)) } };
  },
  /** Refresh's inputs keep the hash `check` adds, so the next preview compares the bytes with it. */
  inputsOf: (outs) => ({
    ...declaredInputs<BucketObjectInputs>(BucketObjectInputsSchema, outs),
    sha256: outs.sha256,
  }),

  /**
   * Uploads the bytes. An object already at the key is taken only when its bytes are these (a run
   * killed after the upload left it, or it is the same file): other bytes there are not overwritten.
   */
  async create({ client }, inputs) {
    const bytes = bytesOf(inputs);
    const there = await client.findBucketObject(
      inputs.projectId,
      inputs.branchId,
      inputs.bucketName,
      inputs.key,
    );
    if (there !== undefined) {
      const { sha256: found } = await client.hashBucketObject(
        inputs.projectId,
        inputs.branchId,
        inputs.bucketName,
        inputs.key,
      );
      if (found !== sha256(bytes))
        throw new ResourceError(
          "NameTaken",
          `bucket ${inputs.bucketName} on branch ${inputs.branchId} already has an object ${JSON.stringify(inputs.key)} ` +
            `with other bytes (sha256 ${found}), and nothing proves this resource wrote it. If it is this resource's, ` +
            `add adoptExisting: ${JSON.stringify(inputs.key)} and run \`pulumi up\` again (its bytes are replaced by ` +
            "this resource's); otherwise choose another key.",
        );
    }
    return upload(client, inputs, bytes);
  },

  /** Takes the object of key `key` under management and uploads this resource's bytes over it. */
  async adopt({ client }, inputs, key) {
    if (key !== inputs.key)
      throw new ResourceError(
        "NotAdoptable",
        `adoptExisting is ${JSON.stringify(key)} but key is ${JSON.stringify(inputs.key)}: an object is named by its key; give both the same value`,
      );
    await found(client, inputs.projectId, inputs.branchId, inputs.bucketName, key);
    return upload(client, inputs, bytesOf(inputs));
  },

  /** The object the import id names, its bytes hashed; its file or text is the program's to give. */
  async readExisting({ client }, inputs, part) {
    const key = unescapedKey(part);
    const object = await found(client, inputs.projectId, inputs.branchId, inputs.bucketName, key);
    const { sha256: hash } = await client.hashBucketObject(
      inputs.projectId,
      inputs.branchId,
      inputs.bucketName,
      key,
    );
    const { source: _s, content: _c, ...rest } = inputs;
    return outputsOf({ ...rest, key }, object, hash);
  },

  /**
   * The object as it is now; gone once deleted elsewhere (or with its bucket or branch). Another
   * entity tag than the state's means it was written elsewhere: its bytes are hashed again, so the
   * next preview shows the change of `sha256` and the `up` uploads this resource's bytes again.
   */
  async read({ client }, _id, props) {
    if (props === undefined) return undefined;
    const object = await client.findBucketObject(
      props.projectId,
      props.branchId,
      props.bucketName,
      props.key,
    );
    if (object === undefined) return undefined;
    if (object.etag === props.etag)
      return { ...props, size: object.size, lastModified: object.last_modified };
    const { sha256: hash } = await client.hashBucketObject(
      props.projectId,
      props.branchId,
      props.bucketName,
      props.key,
    );
    return {
      ...props,
      sha256: hash,
      etag: object.etag,
      size: object.size,
      lastModified: object.last_modified,
    };
  },

  /** New bytes or a new content type: the bytes uploaded again, which replaces the object of the key. */
  async update({ client }, _id, outs, _olds, news) {
    return { ...outs, ...(await upload(client, news, bytesOf(news))) };
  },

  async remove({ client }, _id, props) {
    await client.deleteBucketObject(props.projectId, props.branchId, props.bucketName, props.key);
  },
});

/** The bucket's object `key`; the client's not-found error otherwise. */
async function found(
  client: CloudDbClient,
  projectId: string,
  branchId: string,
  bucketName: string,
  key: string,
): Promise<ApiObject> {
  const object = await client.findBucketObject(projectId, branchId, bucketName, key);
  if (object === undefined)
    throw new NotFoundError(
      `bucket ${bucketName} on branch ${branchId} of project ${projectId} has no object ${JSON.stringify(key)}`,
    );
  return object;
}

/** Uploads the bytes to the inputs' key, then reads the object back for its entity tag, size and time. */
async function upload(
  client: CloudDbClient,
  inputs: BucketObjectInputs,
  bytes: Buffer,
): Promise<BucketObjectOutputs> {
  const { projectId, branchId, bucketName, key } = inputs;
  await client.uploadBucketObject(projectId, branchId, bucketName, key, bytes, inputs.contentType);
  const object = await found(client, projectId, branchId, bucketName, key);
  return outputsOf(inputs, object, sha256(bytes));
}

function outputsOf(inputs: BucketObjectInputs, object: ApiObject, hash: string): BucketObjectOutputs {
  return {
    ...declaredInputs<BucketObjectInputs>(BucketObjectInputsSchema, inputs),
    key: object.key,
    sha256: hash,
    etag: object.etag,
    size: object.size,
    lastModified: object.last_modified,
  };
}

// The provider's methods, which the kinds' table (`methodsTable.ts`) serves.
export const { configure, check, diff, create, read, update, remove } =
  providerMethods(bucketObjectDefinition);
