/** A branch's object-storage buckets and their objects (docs/api-rules.md §26). */
import { z } from "zod";
import { DOCUMENTED, maybe } from "./common";

/** A bucket. The access level is a string: the service may add levels. */
export const BucketSchema = z.looseObject({
  name: z.string(),
  access_level: z.string(),
  created_at: z.string(),
});
DOCUMENTED.add(BucketSchema, { as: "Bucket" });
/** A bucket on a branch. */
export type Bucket = z.infer<typeof BucketSchema>;

/** `POST .../buckets` (201). */
export const BucketResponseSchema = z.looseObject({ bucket: BucketSchema });
DOCUMENTED.add(BucketResponseSchema, { as: "BucketResponse" });

/** `GET .../buckets`: the branch's buckets, those it inherited included. */
export const BucketsListResponseSchema = z.looseObject({ buckets: z.array(BucketSchema) });
DOCUMENTED.add(BucketsListResponseSchema, { as: "BucketsListResponse" });

/** An object of a listing. */
export const BucketObjectSchema = z.looseObject({
  key: z.string(),
  size: z.number(),
  last_modified: z.string(),
  etag: z.string(),
});
DOCUMENTED.add(BucketObjectSchema, { as: "BucketObject" });
/** An object of a bucket, as a listing shows it. */
export type BucketObject = z.infer<typeof BucketObjectSchema>;

/** `GET .../objects`: one page of folders and objects. */
export const BucketObjectsListResponseSchema = z.looseObject({
  folders: z.array(z.string()),
  objects: z.array(BucketObjectSchema),
  prefix: z.string(),
  next_cursor: maybe(z.string()),
  is_truncated: z.boolean(),
});
DOCUMENTED.add(BucketObjectsListResponseSchema, { as: "BucketObjectsListResponse" });

/** `DELETE .../objects-by-prefix`: how many objects it deleted. */
export const BucketObjectsDeletePrefixResponseSchema = z.looseObject({ deleted: z.number() });
DOCUMENTED.add(BucketObjectsDeletePrefixResponseSchema, { as: "BucketObjectsDeletePrefixResponse" });

/** `POST .../objects/{object_key}/presign`: the URL to send the bytes to, with the method and headers to use. */
export const PresignResponseSchema = z.looseObject({
  url: z.string(),
  method: z.string(),
  headers: z.record(z.string(), z.string()),
  expires_at: z.string(),
});
DOCUMENTED.add(PresignResponseSchema, { as: "PresignResponse" });
/** A presigned URL, as the API answers it. */
export type Presigned = z.infer<typeof PresignResponseSchema>;
